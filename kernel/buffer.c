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
 * refused with ENOSPC, before the OOM killer has a reason to run.
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
#include "syncdev.h"

#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>

/* Bytes of all sessions' buffers, reserved before they are allocated. */
static atomic_long_t syncdev_buffer_bytes = ATOMIC_LONG_INIT(0);

/* Reserve buf_size bytes under max_buffer_mb. */
static int syncdev_buffer_reserve(void)
{
	unsigned long total = atomic_long_add_return(syncdev_buf_size,
						     &syncdev_buffer_bytes);

	if (total <= syncdev_max_buffer_bytes)
		return 0;
	atomic_long_sub(syncdev_buf_size, &syncdev_buffer_bytes);
	pr_warn_ratelimited("no buffer for another session: the buffers in use reach max_buffer_mb=%lu\n",
			    syncdev_max_buffer_bytes >> 20);
	return -ENOSPC;
}

/*
 * The session's buffer, allocated on first call: ERR_PTR(-ENOSPC) over
 * the module's limit, ERR_PTR(-ENOMEM) when there is no memory for it.
 */
void *syncdev_buffer(struct syncdev_session *s)
{
	void *buf, *old;
	int ret;

	/* Pairs with the cmpxchg below: a buffer seen is fully zeroed. */
	buf = smp_load_acquire(&s->buf);
	if (buf)
		return buf;
	ret = syncdev_buffer_reserve();
	if (ret)
		return ERR_PTR(ret);
	/* The failure is handled (ENOMEM): no allocation warning. */
	buf = __vmalloc(syncdev_buf_size,
			GFP_KERNEL_ACCOUNT | __GFP_ZERO | __GFP_NOWARN);
	if (!buf) {
		atomic_long_sub(syncdev_buf_size, &syncdev_buffer_bytes);
		return ERR_PTR(-ENOMEM);
	}
	/* Two racing first users: one allocation wins, the other is freed. */
	old = cmpxchg(&s->buf, NULL, buf);
	if (old) {
		vfree(buf);
		atomic_long_sub(syncdev_buf_size, &syncdev_buffer_bytes);
		return old;
	}
	return buf;
}

void syncdev_buffer_free(struct syncdev_session *s)
{
	if (!s->buf)
		return;
	vfree(s->buf);
	s->buf = NULL;
	atomic_long_sub(syncdev_buf_size, &syncdev_buffer_bytes);
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
