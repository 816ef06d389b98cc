/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Drop a file's pages from the page cache, so that the next read comes
 * from the device ("cold").  Root drops the whole page cache through
 * /proc/sys/vm/drop_caches; anyone else asks the kernel to drop the
 * file's clean pages with posix_fadvise(POSIX_FADV_DONTNEED), which
 * leaves pages that other processes have mapped or locked.
 */
#ifndef SYNCDEV_DROPCACHE_H
#define SYNCDEV_DROPCACHE_H

enum dropcache_method {
	DROPCACHE_PROC,		/* wrote 1 to /proc/sys/vm/drop_caches */
	DROPCACHE_FADVISE,	/* posix_fadvise(DONTNEED) on the file */
};

/*
 * Write back and drop the cached pages of fd's file.  With global, tries
 * /proc/sys/vm/drop_caches first (it works only for root, and empties the
 * cache of every process on the machine), then posix_fadvise.  Returns
 * the method used, or -1 with errno set when neither worked.
 */
int dropcache(int fd, int global);

/* "drop_caches" or "fadvise(DONTNEED)", for report notes. */
const char *dropcache_name(int method);

#endif
