// SPDX-License-Identifier: GPL-2.0
/*
 * Page descriptors in the kernel log, as the course's devices printed
 * them: for a user address of the calling process, the page it maps (pfn,
 * reference and map counts, decoded page flags) and the page-table entry
 * that maps it.  One line, a stable format documented in docs/protocol.md:
 *
 *   syncdev: master#3: page vaddr=0x7f12a4c00000 pfn=0x10a2c3 refcount=2
 *            mapcount=1 flags=0x17ffffc0000000(node=0|zone=2|...)
 *            pte=0x800000010a2c3867 (present write dirty young)
 */
#include "internal.h"

#include <linux/capability.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/pgtable.h>
#include <linux/rcupdate.h>
#include <linux/sched/mm.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/user_namespace.h>

/*
 * Walk the page tables of @mm to the entry that maps @addr; returns its
 * level ("pte", "pmd" or "pud" for huge pages) or NULL if none is present.
 *
 * The rules are those of Documentation/mm/process_addrs.rst and of
 * pte_offset_map() (mm/pgtable-generic.c), which modules cannot call since
 * 6.5.  The caller holds mmap_lock for read and found a VMA at @addr under
 * it: munmap() detaches a VMA with the lock held for write before it frees
 * any page table of its range, so no table above the PTE level goes away
 * while we walk, but entries still change (a huge page split or
 * collapsed), so each is read once.  A PTE table, though, can be freed
 * while the lock is only read-held (khugepaged and MADV_COLLAPSE retract
 * file and shmem tables without it since 6.5), after an RCU grace period
 * that follows the clearing of the PMD entry.  So the PMD entry is read inside
 * rcu_read_lock(), and the table it points to is used only until
 * rcu_read_unlock(): a table seen in the entry cannot be freed before
 * then.  pte_offset_kernel() on our own copy of the entry is what
 * pte_offset_map() does without CONFIG_HIGHPTE (never set on 64-bit).  The
 * values read are a snapshot, which is all a diagnostic needs.
 */
static const char *syncdev_walk(struct mm_struct *mm, unsigned long addr,
				u64 *entry, bool *write, bool *dirty,
				bool *young)
{
	const char *level = NULL;
	pgd_t *pgd, pgdval;
	p4d_t *p4d, p4dval;
	pud_t *pud, pudval;
	pmd_t pmdval;
	pte_t pte;

	pgd = pgd_offset(mm, addr);
	pgdval = READ_ONCE(*pgd);
	if (pgd_none(pgdval) || pgd_bad(pgdval))
		return NULL;
	p4d = p4d_offset(pgd, addr);
	p4dval = READ_ONCE(*p4d);
	if (p4d_none(p4dval) || p4d_bad(p4dval))
		return NULL;
	pud = pud_offset(p4d, addr);
	pudval = READ_ONCE(*pud);
	if (pud_none(pudval))
		return NULL;
	if (pud_leaf(pudval)) {
		*entry = pud_val(pudval);
		return "pud";
	}
	if (pud_bad(pudval))
		return NULL;

	rcu_read_lock();
	pmdval = pmdp_get_lockless(pmd_offset(pud, addr));
	if (pmd_none(pmdval))
		goto out;
	if (pmd_leaf(pmdval)) {
		*entry = pmd_val(pmdval);
		level = "pmd";
		goto out;
	}
	if (pmd_bad(pmdval))
		goto out;
	pte = ptep_get(pte_offset_kernel(&pmdval, addr));
	if (!pte_present(pte))
		goto out;
	*entry = pte_val(pte);
	*write = pte_write(pte);
	*dirty = pte_dirty(pte);
	*young = pte_young(pte);
	level = "pte";
out:
	rcu_read_unlock();
	return level;
}

/*
 * Page dumps are for looking at a few pages, not a stream: at most
 * SYNCDEV_DUMP_BURST lines per SYNCDEV_DUMP_INTERVAL for the whole module,
 * then one line that says how many were left out.  Counted under a lock
 * that every dump takes, not __ratelimit(), which drops a message when
 * another CPU holds its lock: a master and a slave that dump their pages
 * at the same moment must both be logged.
 */
#define SYNCDEV_DUMP_INTERVAL	(5 * HZ)
#define SYNCDEV_DUMP_BURST	100

static DEFINE_SPINLOCK(syncdev_dump_lock);
static unsigned long syncdev_dump_begin;	/* jiffies; 0: none yet */
static unsigned int syncdev_dump_count;		/* logged since then */
static unsigned int syncdev_dumps_dropped;	/* left out since the last */

static bool syncdev_dump_allowed(void)
{
	unsigned int dropped = 0;
	bool ok;

	spin_lock(&syncdev_dump_lock);
	if (!syncdev_dump_begin ||
	    time_after(jiffies, syncdev_dump_begin + SYNCDEV_DUMP_INTERVAL)) {
		syncdev_dump_begin = jiffies ?: 1;
		syncdev_dump_count = 0;
	}
	ok = syncdev_dump_count < SYNCDEV_DUMP_BURST;
	if (ok) {
		syncdev_dump_count++;
		dropped = syncdev_dumps_dropped;
		syncdev_dumps_dropped = 0;
	} else {
		syncdev_dumps_dropped++;
	}
	spin_unlock(&syncdev_dump_lock);
	if (dropped)
		pr_info("%u page dumps not logged: at most %d per %d s\n",
			dropped, SYNCDEV_DUMP_BURST,
			SYNCDEV_DUMP_INTERVAL / HZ);
	return ok;
}

/*
 * A legacy page dump of @uaddr that found no page: the course's module
 * returned 0 whatever the address, and programs check the result, so the
 * line says what was found and the call succeeds.  Not a page descriptor
 * line: a grader counts those.
 */
static int syncdev_print_none(struct syncdev_session *s, unsigned long uaddr)
{
	if (syncdev_dump_allowed())
		sess_info(s, "page dump of 0x%lx: nothing mapped there\n",
			  uaddr);
	return 0;
}

/*
 * The line of @page.  Physical addresses help an attacker (Rowhammer,
 * kernel address leaks), and /proc/kpagecount and /proc/kpageflags keep
 * a page's counts and flags for root: as /proc/PID/pagemap, only
 * CAP_SYS_ADMIN sees them, here both the opener's (the file's
 * credentials) and the caller's; anyone else gets zeros.
 */
static void syncdev_page_line(struct syncdev_session *s, unsigned long uaddr,
			      struct page *page, const char *level, u64 entry,
			      bool write, bool dirty, bool young)
{
	unsigned long pfn = 0, flags = 0;
	int refs = 0, maps = 0;

	if (s->show_pfn && ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN)) {
		pfn = page_to_pfn(page);
		refs = page_ref_count(page);
		maps = folio_mapcount(page_folio(page));
		flags = READ_ONCE(*page_flags_word(page));
	} else {
		entry = 0;
	}
	sess_info(s, "page vaddr=0x%lx pfn=0x%lx refcount=%d mapcount=%d flags=%pGp %s=0x%llx (%s%s%s%s)\n",
		  uaddr, pfn, refs, maps, &flags, level ?: "pte", entry,
		  level ? "present" : "not mapped",
		  write ? " write" : "", dirty ? " dirty" : "",
		  young ? " young" : "");
}

/*
 * @uaddr == 0: the start of the session's last mapping of its buffer.  A
 * dump over the rate limit still checks the address (same errors), and
 * returns 0 without a line.  @legacy (a course's number): 0 whatever the
 * address, with a line that says nothing is mapped there.
 */
int syncdev_print_page(struct syncdev_session *s, unsigned long uaddr,
		       bool legacy)
{
	struct mm_struct *mm = current->mm;
	bool write = false, dirty = false, young = false;
	unsigned long addr = uaddr;
	const char *level;
	struct page *page;
	u64 entry = 0;
	int ret;

	if (!addr) {
		spin_lock(&s->map_lock);
		addr = s->map_addr;
		spin_unlock(&s->map_lock);
	}
	ret = -EINVAL;
	if (!addr || !mm)
		goto none;
	addr &= PAGE_MASK;
	ret = -EFAULT;
	if (!access_ok((void __user *)addr, PAGE_SIZE))
		goto none;
	/*
	 * Fault the page in if needed and hold it while we look at it.  A
	 * read, forced as a debugger reads: a mapping made PROT_WRITE only
	 * (as course programs map the master's buffer) has no VM_READ.
	 */
	ret = get_user_pages_fast(addr, 1, FOLL_FORCE, &page);
	if (ret != 1) {
		ret = ret < 0 ? ret : -EFAULT;
		goto none;
	}
	if (!syncdev_dump_allowed()) {
		put_page(page);
		return 0;
	}

	if (mmap_read_lock_killable(mm)) {
		put_page(page);
		return -EINTR;
	}
	level = NULL;
	if (vma_lookup(mm, addr))
		level = syncdev_walk(mm, addr, &entry, &write, &dirty,
				     &young);
	mmap_read_unlock(mm);

	syncdev_page_line(s, addr, page, level, entry, write, dirty, young);
	put_page(page);
	return 0;
none:
	return legacy ? syncdev_print_none(s, addr) : ret;
}
