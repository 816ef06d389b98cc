// SPDX-License-Identifier: GPL-2.0
/*
 * The mmappable buffer of a session: buf_size bytes of vmalloc_user()
 * memory, allocated on first use so that sessions that only read() and
 * write() never pay for it.  User space fills it (master) or reads it
 * (slave) through a MAP_SHARED mapping; the SEND/RECV ioctls move its bytes
 * over the connection.
 *
 * Lifetime: a mapping holds a reference to the file, so release() - and
 * the vfree() below - only runs once the last mapping is gone.  Pages
 * therefore stay valid after close() for as long as they are mapped.
 */
#include "syncdev.h"

#include <linux/mm.h>
#include <linux/vmalloc.h>

/* The session's buffer, allocated on first call; NULL if out of memory. */
void *syncdev_buffer(struct syncdev_session *s)
{
	void *buf, *old;

	/* Pairs with the cmpxchg below: a buffer seen is fully zeroed. */
	buf = smp_load_acquire(&s->buf);
	if (buf)
		return buf;
	/* Zeroed, page-aligned, and marked as mappable to user space. */
	buf = vmalloc_user(syncdev_buf_size);
	if (!buf)
		return NULL;
	/* Two racing first users: one allocation wins, the other is freed. */
	old = cmpxchg(&s->buf, NULL, buf);
	if (old) {
		vfree(buf);
		return old;
	}
	return buf;
}

void syncdev_buffer_free(struct syncdev_session *s)
{
	vfree(s->buf);
	s->buf = NULL;
}

int syncdev_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct syncdev_session *s = file->private_data;
	unsigned long buf_pages = syncdev_buf_size >> PAGE_SHIFT;
	void *buf;
	int ret;

	/* A private copy would never reach the device. */
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (vma->vm_pgoff >= buf_pages ||
	    vma_pages(vma) > buf_pages - vma->vm_pgoff)
		return -EINVAL;
	buf = syncdev_buffer(s);
	if (!buf)
		return -ENOMEM;
	ret = remap_vmalloc_range(vma, buf, vma->vm_pgoff);
	if (ret)
		return ret;
	WRITE_ONCE(s->map_addr, vma->vm_start);
	return 0;
}
