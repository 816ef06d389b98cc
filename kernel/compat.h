/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module is written against the newest kernel API.  This header, and
 * nothing else, lets the same sources build on older kernels: each shim
 * provides one interface that the kernel named beside it introduced, and
 * vanishes on that kernel and later ones (page_flags_word() names a
 * difference both ways).  A macro is tested for by name; a function or a
 * type, by the version that introduced it.  Supported: 6.1 to the newest.
 *
 * To add a kernel: build the module against its headers (docs/kernels.md,
 * "Kernel compatibility"); for each interface that changed, add one shim
 * here, guarded by the version that changed it, with a line saying what
 * changed and why the shim is equivalent.
 */
#ifndef SYNCDEV_COMPAT_H
#define SYNCDEV_COMPAT_H

#include <linux/bvec.h>
#include <linux/mm.h>
#include <linux/net.h>
#include <linux/slab.h>
#include <linux/socket.h>
#include <linux/uio.h>
#include <linux/version.h>

#ifndef kzalloc_obj
/*
 * 7.0 added kzalloc_obj() and its family: the size comes from the
 * object's type, and the GFP flags default to GFP_KERNEL.
 */
#define kzalloc_obj(obj) kzalloc(sizeof(obj), GFP_KERNEL)
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
/*
 * 6.2 renamed pmd_read_atomic() to pmdp_get_lockless(): the same read of a
 * PMD entry that may change under the reader.  Before 6.5 no PTE table is
 * freed while mmap_lock is held, so the RCU rule the page walk follows for
 * newer kernels is merely stronger than needed there.
 */
#define pmdp_get_lockless(pmdp) pmd_read_atomic(pmdp)
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
/*
 * 6.3 made vma->vm_flags read-only and added vm_flags_set() for drivers'
 * mmap handlers (which run before the VMA is visible, so no lock is
 * needed beyond the caller's).
 */
static inline void vm_flags_set(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags |= flags;
}
#endif

/*
 * 6.5 made TCP's sendmsg() take the pages of a bvec iterator by reference
 * with MSG_SPLICE_PAGES, and retired sendpage.  Before, kernel_sendpage()
 * sends one page by reference (and copies a page the stack may not hold,
 * as sendmsg() does); Debian's 6.1 defines the flag, but its TCP ignores
 * it.  The device's splice actor sends one pipe buffer a call, so there a
 * one-segment bvec with the flag goes by kernel_sendpage(), which honours
 * the same socket timeouts and signals as sendmsg() and returns the same
 * way.  MSG_MORE then also says "not the last page", as splice() does.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0)
#ifdef MSG_SPLICE_PAGES
#define SYNCDEV_MSG_SPLICE_PAGES MSG_SPLICE_PAGES
#else
#define SYNCDEV_MSG_SPLICE_PAGES 0x8000000	/* its value from 6.5 on */
#endif
static inline int syncdev_sock_sendmsg(struct socket *sock,
				       struct msghdr *msg)
{
	const struct bio_vec *bv = msg->msg_iter.bvec;
	int flags = msg->msg_flags & ~SYNCDEV_MSG_SPLICE_PAGES;
	int ret;

	if (!(msg->msg_flags & SYNCDEV_MSG_SPLICE_PAGES))
		return sock_sendmsg(sock, msg);
	if (!iov_iter_is_bvec(&msg->msg_iter) || msg->msg_iter.nr_segs != 1) {
		msg->msg_flags = flags;
		return sock_sendmsg(sock, msg);
	}
	if (flags & MSG_MORE)
		flags |= MSG_SENDPAGE_NOTLAST;
	ret = kernel_sendpage(sock, bv->bv_page,
			      bv->bv_offset + msg->msg_iter.iov_offset,
			      iov_iter_count(&msg->msg_iter), flags);
	if (ret > 0)
		iov_iter_advance(&msg->msg_iter, ret);
	return ret;
}
#else
#define SYNCDEV_MSG_SPLICE_PAGES MSG_SPLICE_PAGES
#define syncdev_sock_sendmsg sock_sendmsg
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)
/*
 * folio_mapcount() became an inline helper when page_mapcount() was
 * removed (6.12); before, it is out of line and not exported to modules.
 * page_mapcount() of the folio's head page is the same count for the
 * order-0 pages the page dump looks at.
 */
#define folio_mapcount(folio) page_mapcount(&(folio)->page)
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 17, 0)
/*
 * 6.17 added system_dfl_wq, the unbound system workqueue, on the way to
 * retiring system_wq (newer kernels warn when work is queued there);
 * before, the same unbound queue is system_unbound_wq.
 */
#define system_dfl_wq system_unbound_wq
#endif

/*
 * 6.18 wrapped page->flags in memdesc_flags_t; the %pGp format wants the
 * flags word itself.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 18, 0)
#define page_flags_word(page) (&(page)->flags)
#else
#define page_flags_word(page) (&(page)->flags.f)
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 19, 0)
/*
 * 6.19 gave kernel_bind() and kernel_connect() a struct sockaddr_unsized
 * argument (the address length is what bounds it); before, they take a
 * struct sockaddr of the same layout.
 */
#define sockaddr_unsized sockaddr
#endif

#endif /* SYNCDEV_COMPAT_H */
