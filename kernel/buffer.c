// SPDX-License-Identifier: GPL-2.0
/*
 * The mmappable buffer of a session: buf_size bytes of vmalloc memory,
 * allocated on first use so that sessions that only read() and write()
 * never pay for it.  User space fills it (master) or reads it (slave)
 * through a shared mapping; the SEND/RECV ioctls move its bytes over the
 * connection.
 *
 * Accounting: the pages are charged to the memory cgroup of the process
 * that first used the buffer (GFP_KERNEL_ACCOUNT), so a cgroup limit
 * bounds what one user can pin, and all sessions together may hold at most
 * max_buffer_mb (a quarter of RAM unless set): beyond it a new buffer is
 * refused with ENOSPC, before the OOM killer has a reason to run.  So
 * that one user cannot take all of it from the others, the buffers of the
 * files a user opened may hold at most max_user_buffer_mb (half of
 * max_buffer_mb unless set) together, as pipe-user-pages-hard bounds a
 * user's pipes; an opener with CAP_SYS_RESOURCE is exempt, as for pipes.
 * The user of an opener inside a user namespace is the namespace's owner
 * (session.c), so that a range of subordinate uids is one share.
 *
 * Mapping: pages are inserted one at a time by the fault handler, so a
 * mapping works again after MADV_DONTNEED zapped it, and a read-only
 * shared mapping (of an O_RDONLY file) is as good as a writable one.  A
 * session that used the legacy numbers maps the buffer from its start
 * whatever the offset (see syncdev_mmap()).
 *
 * Lifetime: a mapping holds a reference to the file, so release() - and
 * the vfree() below - only runs once the last mapping is gone.  Pages
 * therefore stay valid after close() for as long as they are mapped.
 */
#include "internal.h"

#include <linux/err.h>
#include <linux/hashtable.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

/* The bytes of the buffers of one user's files, while there are any. */
struct syncdev_user {
	struct hlist_node node;
	kuid_t uid;
	unsigned long bytes;
};

/*
 * Bytes of all sessions' buffers and of each user's, reserved before they
 * are allocated; buffer_lock guards both and the table.
 */
static DEFINE_MUTEX(buffer_lock);
static unsigned long syncdev_buffer_bytes;
static DEFINE_HASHTABLE(syncdev_users, 6);

/* Caller holds buffer_lock. */
static struct syncdev_user *syncdev_user_find(kuid_t uid)
{
	struct syncdev_user *u;

	hash_for_each_possible(syncdev_users, u, node, __kuid_val(uid))
		if (uid_eq(u->uid, uid))
			return u;
	return NULL;
}

/* Caller holds buffer_lock; @u may be NULL (an exempt opener). */
static int syncdev_buffer_fits(struct syncdev_user *u, kuid_t uid)
{
	if (syncdev_buffer_bytes + syncdev_buf_size > syncdev_max_buffer_bytes) {
		pr_warn_ratelimited("no buffer for another session: the buffers in use reach max_buffer_mb=%lu\n",
				    syncdev_max_buffer_bytes >> 20);
		return -ENOSPC;
	}
	if (u && u->bytes + syncdev_buf_size > syncdev_max_user_buffer_bytes) {
		pr_warn_ratelimited("no buffer for another session of uid %u: its buffers reach max_user_buffer_mb=%lu\n",
				    from_kuid(&init_user_ns, uid),
				    syncdev_max_user_buffer_bytes >> 20);
		return -ENOSPC;
	}
	return 0;
}

/*
 * Reserve buf_size bytes under max_buffer_mb and under the opener's
 * share, max_user_buffer_mb.  The opener's count is created here and
 * removed when its last buffer goes.  *@charged: whether the opener's
 * count holds it (not for an exempt opener).
 */
static int syncdev_buffer_reserve(struct syncdev_session *s, bool *charged)
{
	struct syncdev_user *u = NULL, *fresh = NULL;
	int ret;

	if (!s->no_user_limit) {
		fresh = kzalloc_obj(*fresh);
		if (!fresh)
			return -ENOMEM;
	}
	mutex_lock(&buffer_lock);
	if (fresh) {
		u = syncdev_user_find(s->share_uid);
		if (!u) {
			u = fresh;
			fresh = NULL;
			u->uid = s->share_uid;
			hash_add(syncdev_users, &u->node,
				 __kuid_val(s->share_uid));
		}
	}
	ret = syncdev_buffer_fits(u, s->share_uid);
	if (!ret) {
		syncdev_buffer_bytes += syncdev_buf_size;
		if (u)
			u->bytes += syncdev_buf_size;
		*charged = !!u;
	} else if (u && !u->bytes) {
		hash_del(&u->node);
		kfree(u);
	}
	mutex_unlock(&buffer_lock);
	kfree(fresh);
	return ret;
}

static void syncdev_buffer_unreserve(kuid_t uid, bool charged)
{
	struct syncdev_user *u;

	mutex_lock(&buffer_lock);
	syncdev_buffer_bytes -= syncdev_buf_size;
	u = charged ? syncdev_user_find(uid) : NULL;
	if (u) {
		u->bytes -= syncdev_buf_size;
		if (!u->bytes) {
			hash_del(&u->node);
			kfree(u);
		}
	}
	mutex_unlock(&buffer_lock);
}

/*
 * The session's buffer, allocated on first call: ERR_PTR(-ENOSPC) over
 * the module's limit or the opener's share, ERR_PTR(-ENOMEM) when there is no memory for it.
 */
void *syncdev_buffer(struct syncdev_session *s)
{
	bool charged = false;
	void *buf, *old;
	int ret;

	/* Pairs with the cmpxchg below: a buffer seen is fully zeroed. */
	buf = smp_load_acquire(&s->buf);
	if (buf)
		return buf;
	ret = syncdev_buffer_reserve(s, &charged);
	if (ret)
		return ERR_PTR(ret);
	/* The failure is handled (ENOMEM): no allocation warning. */
	buf = __vmalloc(syncdev_buf_size,
			GFP_KERNEL_ACCOUNT | __GFP_ZERO | __GFP_NOWARN);
	if (!buf) {
		syncdev_buffer_unreserve(s->share_uid, charged);
		return ERR_PTR(-ENOMEM);
	}
	/* Two racing first users: one allocation wins, the other is freed. */
	old = cmpxchg(&s->buf, NULL, buf);
	if (old) {
		vfree(buf);
		syncdev_buffer_unreserve(s->share_uid, charged);
		return old;
	}
	/* Read only by release, once no other call can run. */
	s->buf_charged = charged;
	return buf;
}

void syncdev_buffer_free(struct syncdev_session *s)
{
	if (!s->buf)
		return;
	vfree(s->buf);
	s->buf = NULL;
	syncdev_buffer_unreserve(s->share_uid, s->buf_charged);
}

/*
 * Page @index of the buffer for a mapping, which takes our reference;
 * past the buffer there is nothing to show: SIGBUS.
 */
static vm_fault_t syncdev_fault_page(struct vm_fault *vmf, unsigned long index)
{
	struct syncdev_session *s = vmf->vma->vm_file->private_data;
	/* Set before the mapping was made, and freed only after it is gone. */
	void *buf = smp_load_acquire(&s->buf);
	struct page *page;

	if (!buf || index >= syncdev_buf_size >> PAGE_SHIFT)
		return VM_FAULT_SIGBUS;
	page = vmalloc_to_page(buf + (index << PAGE_SHIFT));
	get_page(page);
	vmf->page = page;
	return 0;
}

/* A mapping's offset in the file is its offset in the buffer. */
static vm_fault_t syncdev_vm_fault(struct vm_fault *vmf)
{
	return syncdev_fault_page(vmf, vmf->pgoff);
}

/*
 * A legacy mapping shows the buffer from its start whatever its offset:
 * vm_private_data holds the file offset (in pages) it was made at, which,
 * unlike vm_pgoff, stays the same when the mapping is split.
 */
static vm_fault_t syncdev_legacy_vm_fault(struct vm_fault *vmf)
{
	unsigned long base = (unsigned long)vmf->vma->vm_private_data;

	return syncdev_fault_page(vmf, vmf->pgoff - base);
}

static const struct vm_operations_struct syncdev_vm_ops = {
	.fault = syncdev_vm_fault,
};

static const struct vm_operations_struct syncdev_legacy_vm_ops = {
	.fault = syncdev_legacy_vm_fault,
};

/*
 * A session that used a legacy number maps as the course's module did:
 * the buffer from its start, whatever the offset and length (pages past
 * the buffer are SIGBUS where the course's module showed other memory).
 * Any other mapping must lie within the buffer.
 */
int syncdev_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct syncdev_session *s = file->private_data;
	unsigned long buf_pages = syncdev_buf_size >> PAGE_SHIFT;
	bool legacy = READ_ONCE(s->legacy);
	void *buf;

	/*
	 * A private copy would never reach the device.  VM_MAYSHARE, not
	 * VM_SHARED: a shared mapping of a file opened read-only has only
	 * the former.
	 */
	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	if (!legacy && (vma->vm_pgoff >= buf_pages ||
			vma_pages(vma) > buf_pages - vma->vm_pgoff))
		return -EINVAL;
	buf = syncdev_buffer(s);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	/* mremap() must not grow it past the buffer. */
	vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_ops = &syncdev_vm_ops;
	if (legacy) {
		vma->vm_private_data = (void *)vma->vm_pgoff;
		vma->vm_ops = &syncdev_legacy_vm_ops;
	}

	spin_lock(&s->map_lock);
	s->map_addr = vma->vm_start;
	s->map_pgoff = legacy ? 0 : vma->vm_pgoff;
	s->map_pages = vma_pages(vma);
	spin_unlock(&s->map_lock);
	return 0;
}
