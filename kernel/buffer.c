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
 * shared mapping (of an O_RDONLY file) is as good as a writable one.
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

/* A page of the buffer for a mapping; the mapping takes our reference. */
static vm_fault_t syncdev_vm_fault(struct vm_fault *vmf)
{
	struct syncdev_session *s = vmf->vma->vm_file->private_data;
	/* Set before the mapping was made, and freed only after it is gone. */
	void *buf = smp_load_acquire(&s->buf);
	struct page *page;

	if (!buf || vmf->pgoff >= syncdev_buf_size >> PAGE_SHIFT)
		return VM_FAULT_SIGBUS;
	page = vmalloc_to_page(buf + (vmf->pgoff << PAGE_SHIFT));
	get_page(page);
	vmf->page = page;
	return 0;
}

static const struct vm_operations_struct syncdev_vm_ops = {
	.fault = syncdev_vm_fault,
};

int syncdev_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct syncdev_session *s = file->private_data;
	unsigned long buf_pages = syncdev_buf_size >> PAGE_SHIFT;
	void *buf;

	/*
	 * A private copy would never reach the device.  VM_MAYSHARE, not
	 * VM_SHARED: a shared mapping of a file opened read-only has only
	 * the former.
	 */
	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	if (vma->vm_pgoff >= buf_pages ||
	    vma_pages(vma) > buf_pages - vma->vm_pgoff)
		return -EINVAL;
	/* See syncdev_prep_legacy_xfer(): the received bytes are at 0. */
	if (vma->vm_pgoff && READ_ONCE(s->legacy_recv_first)) {
		pr_info_ratelimited("%s#%u: refused a mapping at offset %lu: a legacy receive before any mapping put the bytes at offset 0\n",
				    syncdev_role_name(s), s->id,
				    vma->vm_pgoff << PAGE_SHIFT);
		return -EINVAL;
	}
	buf = syncdev_buffer(s);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	/* mremap() must not grow it past the buffer. */
	vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_ops = &syncdev_vm_ops;

	spin_lock(&s->map_lock);
	s->map_addr = vma->vm_start;
	s->map_pgoff = vma->vm_pgoff;
	s->map_pages = vma_pages(vma);
	spin_unlock(&s->map_lock);
	return 0;
}
