// SPDX-License-Identifier: GPL-2.0
/*
 * osbench pagefault: page fault service time, per fault.
 *
 *  - minor: the first write to each page of a fresh anonymous mapping;
 *    the kernel allocates and zeroes a page, no I/O.  Huge pages are
 *    turned off for the mapping so that every 4 KiB page faults.
 *  - major: the first read of each page of a file mapping whose pages
 *    were dropped from the page cache (fsync, then POSIX_FADV_DONTNEED);
 *    MADV_RANDOM turns read-ahead off so each fault reads one page from
 *    the device.  The seed of this project measured minor faults when it
 *    meant major ones; here getrusage() counts the faults of each kind
 *    and a sample whose faults were not major is not reported as such.
 */
#include "micro.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/statfs.h>
#include <unistd.h>

static void faults(long *minor, long *major)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*minor = ru.ru_minflt;
	*major = ru.ru_majflt;
}

/* Touch every page of [p, p + len): write (anonymous) or read (file). */
static void touch(volatile char *p, size_t len, size_t page, int write)
{
	size_t off;
	char sum = 0;

	for (off = 0; off < len; off += page) {
		if (write)
			p[off] = 1;
		else
			sum += p[off];
	}
	(void)sum;
}

struct sample {
	double ns_per_fault;
	double counted;		/* faults of the wanted kind per page */
};

/* Time the first touch of every page of p: ns per fault, faults counted. */
static void time_touch(volatile char *p, size_t len, size_t page, int write,
		       struct sample *s)
{
	long mi0, ma0, mi1, ma1;
	uint64_t t0;

	faults(&mi0, &ma0);
	t0 = now_ns();
	touch(p, len, page, write);
	s->ns_per_fault = (double)(now_ns() - t0) / (double)(len / page);
	faults(&mi1, &ma1);
	s->counted = (double)(write ? mi1 - mi0 : ma1 - ma0) /
		     (double)(len / page);
}

static int minor_once(size_t len, size_t page, struct sample *s)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return fail_errno("mmap %zu bytes", len);
	madvise(p, len, MADV_NOHUGEPAGE);
	time_touch(p, len, page, 1, s);
	munmap(p, len);
	return 0;
}

static int major_once(int fd, size_t len, size_t page, struct sample *s)
{
	char *p;
	int err = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);

	if (err) {
		errno = err;
		return fail_errno("posix_fadvise");
	}
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return fail_errno("mmap file");
	madvise(p, len, MADV_RANDOM);
	time_touch(p, len, page, 0, s);
	munmap(p, len);
	return 0;
}

/* A file of len bytes on disk, not in the page cache: its fd, or -1. */
static int make_file(const char *path, size_t len)
{
	char buf[65536];
	size_t done;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		return fail_errno("create %s", path);
	unlink(path);		/* gone when we exit, however we exit */
	memset(buf, 0x5a, sizeof(buf));
	for (done = 0; done < len; done += sizeof(buf))
		if (write_full(fd, buf, sizeof(buf)) < 0)
			break;
	if (done < len || fsync(fd)) {
		msg_errno("%s %s", done < len ? "write" : "fsync", path);
		close(fd);
		return -1;
	}
	return fd;
}

/* The parameters of one run and where its samples go. */
struct faults_run {
	struct measure m;
	uint64_t size, fsize;
	size_t page;
	double *ns, *cnt;
};

/* Warm-up (minor only) and samples: fd < 0 minor faults, else major. */
static int sample_faults(struct faults_run *fr, int fd)
{
	unsigned int i, warm = fd < 0 ? fr->m.warmup : 0;
	struct sample s;

	for (i = 0; i < warm + fr->m.samples; i++) {
		if (fd < 0 ? minor_once(fr->size, fr->page, &s) :
			     major_once(fd, fr->fsize, fr->page, &s))
			return -1;
		if (i >= warm) {
			fr->ns[i - warm] = s.ns_per_fault;
			fr->cnt[i - warm] = s.counted;
		}
	}
	return 0;
}

static void row(const struct ctx *c, struct report *r, const char *name,
		double *ns, double *counted, unsigned n, enum figure fig)
{
	struct stats st, cs;
	int ok;

	stats_compute(ns, n, &st);
	stats_compute(counted, n, &cs);
	/* Mostly served from memory: not a major fault service time. */
	ok = cs.median >= 0.5;
	stats_scale(&st, 1e-3);
	report_str(r, name);
	measure_cells(r, &st, ok);
	report_str(r, "us");
	report_num(r, cs.median);
	if (ok)
		ctx_figure_st(c, fig, &st, "us");
}

struct pagefault_opts {
	uint64_t size, file_size;	/* 0: the mode's */
};

static const struct opt pagefault_options[] = {
	{ .name = "size", .kind = OPT_SIZE, .arg = "SIZE", .min = 4096,
	  .off = offsetof(struct pagefault_opts, size),
	  .help = "anonymous memory for minor faults (default 256M,\n"
		  "--quick 64M, --smoke 1M)" },
	{ .name = "file-size", .kind = OPT_SIZE, .arg = "SIZE", .min = 4096,
	  .off = offsetof(struct pagefault_opts, file_size),
	  .help = "file for major faults (default 32M, --quick 4M,\n"
		  "--smoke 256K)" },
	{ 0 },
};

/* Both rows and the notes about the file; 0 or -1. */
static int pagefault_rows(const struct ctx *c, struct report *r,
			  struct faults_run *fr)
{
	struct statfs sfs;
	char path[4096];
	int fd;

	mb_progress(&c->o, "minor faults");
	if (sample_faults(fr, -1))
		return -1;
	row(c, r, "minor (anonymous first write)", fr->ns, fr->cnt,
	    fr->m.samples, FIG_FAULT_MINOR);
	mb_progress(&c->o, "major faults");
	snprintf(path, sizeof(path), "%s/osbench-fault.%d", c->o.dir,
		 (int)getpid());
	fd = make_file(path, fr->fsize);
	if (fd < 0 || sample_faults(fr, fd)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	row(c, r, "major (file, not cached)", fr->ns, fr->cnt, fr->m.samples,
	    FIG_FAULT_MAJOR);
	if (fstatfs(fd, &sfs))
		sfs.f_type = 0;
	close(fd);
	report_note(r, "file", "%llu KiB in %s (file system magic 0x%lx), "
		    "POSIX_FADV_DONTNEED before each sample, MADV_RANDOM",
		    (unsigned long long)fr->fsize >> 10, c->o.dir,
		    (unsigned long)sfs.f_type);
	if (fr->cnt[0] < 0.5)
		report_note(r, "major", "not measured: the pages stayed in "
			    "memory (tmpfs, or a file system that ignores "
			    "POSIX_FADV_DONTNEED); use --dir on a disk");
	return 0;
}

static const char usage[] =
	"usage: osbench pagefault [--size SIZE] [--file-size SIZE] [options]\n\n"
	"Page fault service time per fault: minor faults (first write to\n"
	"each page of SIZE bytes of anonymous memory) and major faults (first\n"
	"read of each page of a file of --file-size bytes in --dir, dropped\n"
	"from the page cache first).  faults_per_page counts the faults of\n"
	"that kind getrusage() saw, per page touched (1 when as intended).\n";

static int pagefault_run(const struct ctx *c, const void *opts)
{
	const struct pagefault_opts *po = opts;
	struct faults_run fr = {
		.size = po->size ? po->size : benchopt_pick(&c->o, 256ull << 20,
							    64ull << 20,
							    1ull << 20),
		.fsize = po->file_size ? po->file_size :
			 benchopt_pick(&c->o, 32ull << 20, 4ull << 20,
				       256ull << 10),
		.page = (size_t)sysconf(_SC_PAGESIZE),
	};
	struct report *r;
	int rc;

	fr.size -= fr.size % fr.page;
	fr.fsize -= fr.fsize % 65536;
	if (!fr.fsize)
		fr.fsize = 65536;
	benchopt_measure(&c->o, &fr.m);
	fr.ns = xcalloc(fr.m.samples, sizeof(*fr.ns));
	fr.cnt = xcalloc(fr.m.samples, sizeof(*fr.cnt));
	r = mb_report_new(c, "pagefault", NULL);
	report_note(r, "method", "%u samples after %u warm-up, each "
		    "touching every page once", fr.m.samples, fr.m.warmup);
	report_note(r, "anonymous", "%llu MiB, MADV_NOHUGEPAGE, %zu-byte "
		    "pages", (unsigned long long)fr.size >> 20, fr.page);
	report_column(r, "test", NULL);
	measure_columns(r);
	report_column(r, "unit", NULL);
	report_column(r, "faults_per_page", NULL);
	rc = pagefault_rows(c, r, &fr);
	free(fr.ns);
	free(fr.cnt);
	if (rc) {
		report_free(r);
		return EXIT_FAIL;
	}
	return report_end(r) ? EXIT_FAIL : EXIT_OK;
}

OSBENCH_COMMAND(pagefault, "pagefault", CMD_TABLE | CMD_SCRATCH | CMD_ALL,
		"minor and major page fault service time",
		COMMAND_OPTIONS(pagefault_options, struct pagefault_opts));
