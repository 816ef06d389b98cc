// SPDX-License-Identifier: GPL-2.0
/*
 * osbench fileaccess: local against remote file access (seed 004).
 *
 * In each directory given (a local file system, an NFS or other network
 * mount, ...) a scratch file is written with O_SYNC writes in chunks of
 * 64 B to 1 MiB, so every write waits for the storage (or the server),
 * then read sequentially and at random unaligned offsets in the same
 * chunk sizes.  Before every read sample the file's pages are dropped
 * from the page cache (POSIX_FADV_DONTNEED) so reads go to the storage;
 * a file system that keeps them (tmpfs) shows memory speed.  Directories
 * are measured one after the other and printed side by side.
 */
#include "micro.h"
#include "plot.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum fop { F_SYNC_WRITE, F_SEQ_READ, F_RAND_READ, F_NOPS };
static const char *const fop_names[] = {
	"sync-write", "seq-read", "rand-read",
};

struct target {
	int fd;			/* O_RDWR | O_SYNC */
	size_t fsize, chunk;
	off_t off;
	uint64_t seed;
	char *buf;
};

static void do_sync_write(void *arg, uint64_t n)
{
	struct target *t = arg;

	while (n--) {
		if (t->off + (off_t)t->chunk > (off_t)t->fsize)
			t->off = 0;
		if (pwrite(t->fd, t->buf, t->chunk, t->off) != (ssize_t)t->chunk)
			die_errno("O_SYNC write");
		t->off += (off_t)t->chunk;
	}
}

static void drop_cache(struct target *t)
{
	int err;

	/*
	 * Clean pages only: the writes were synchronous, so all are.  A
	 * failure would turn the cold reads into warm ones unnoticed.
	 */
	err = posix_fadvise(t->fd, 0, 0, POSIX_FADV_DONTNEED);
	if (err) {
		errno = err;
		die_errno("posix_fadvise(DONTNEED)");
	}
}

static void do_seq_read(void *arg, uint64_t n)
{
	struct target *t = arg;

	drop_cache(t);
	while (n--) {
		if (t->off + (off_t)t->chunk > (off_t)t->fsize)
			t->off = 0;
		if (pread(t->fd, t->buf, t->chunk, t->off) != (ssize_t)t->chunk)
			die_errno("read");
		t->off += (off_t)t->chunk;
	}
}

static void do_rand_read(void *arg, uint64_t n)
{
	struct target *t = arg;
	off_t off;

	drop_cache(t);
	while (n--) {
		t->seed = t->seed * 6364136223846793005ULL + 1;
		off = (off_t)((t->seed >> 20) % (t->fsize - t->chunk + 1));
		if (pread(t->fd, t->buf, t->chunk, off) != (ssize_t)t->chunk)
			die_errno("read");
	}
}

static const measure_fn fop_fns[] = {
	do_sync_write, do_seq_read, do_rand_read,
};

static const char usage[] =
	"usage: osbench fileaccess [--min-chunk SIZE] [--max-chunk SIZE]\n"
	"                          [--file-size SIZE] [DIR...]\n\n"
	"File access in each DIR (default: --dir), side by side: O_SYNC\n"
	"writes, then sequential and random reads (page cache dropped first),\n"
	"in chunks from 64 B to 1 MiB (x4 steps), in MiB/s.  Give a local\n"
	"and a remote (NFS, ...) directory to compare them.\n\n";

/* Create the scratch file, filled and on stable storage. */
static void target_open(struct target *t, const char *dir, size_t fsize,
			size_t maxchunk)
{
	char path[4096];
	size_t done;
	struct stat st;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		die(EXIT_USAGE, "%s: not a directory", dir);
	snprintf(path, sizeof(path), "%s/osbench-fileaccess.%d", dir,
		 (int)getpid());
	t->fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_SYNC, 0600);
	if (t->fd < 0)
		die_errno("create %s", path);
	unlink(path);
	t->fsize = fsize;
	t->seed = 1;
	t->buf = xmalloc(maxchunk);
	memset(t->buf, 0xa5, maxchunk);
	for (done = 0; done < fsize; done += maxchunk)
		if (pwrite(t->fd, t->buf, maxchunk, (off_t)done) !=
		    (ssize_t)maxchunk)
			die_errno("write %s", path);
}

int mb_fileaccess(int argc, char **argv)
{
	struct benchopt o;
	struct measure m;
	struct measure_result res;
	struct report *r;
	const char **dirs;
	struct plot *p = NULL;
	char name[300];
	uint64_t minc = 64, maxc = 1 << 20, fsize = 0, chunk;
	size_t ndirs = 0, d, series = 0;
	int i, f, rc = mb_begin(&o, &argc, argv, usage);

	if (rc != MB_GO)
		return rc;
	dirs = xcalloc((size_t)argc + 1, sizeof(*dirs));
	for (i = 1; i < argc; i++) {
		uint64_t *dst = !strcmp(argv[i], "--min-chunk") ? &minc :
				!strcmp(argv[i], "--max-chunk") ? &maxc :
				!strcmp(argv[i], "--file-size") ? &fsize : NULL;

		if (!dst && argv[i][0] == '-')
			return mb_bad_arg(argv[i]);
		if (!dst) {
			dirs[ndirs++] = argv[i];
			continue;
		}
		if (i + 1 >= argc)
			return mb_bad_arg(argv[i]);
		if (parse_size(argv[++i], dst) || !*dst)
			die(EXIT_USAGE, "bad size '%s'", argv[i]);
	}
	if (!ndirs)
		dirs[ndirs++] = o.dir;
	if (minc > maxc)
		die(EXIT_USAGE, "--min-chunk is above --max-chunk");
	if (!fsize)
		fsize = benchopt_pick(&o, 64ull << 20, 8ull << 20,
				      256ull << 10);
	if (fsize < maxc)
		fsize = maxc;
	fsize -= fsize % maxc;

	benchopt_measure(&o, &m);
	r = mb_report_new("fileaccess", &o, &m);
	report_note(r, "file", "%llu KiB scratch file per directory, "
		    "removed at exit", (unsigned long long)fsize >> 10);
	report_note(r, "reads", "POSIX_FADV_DONTNEED before every sample; "
		    "random offsets are not aligned");
	report_column(r, "dir", NULL);
	report_column(r, "op", NULL);
	report_column(r, "chunk_bytes", NULL);
	measure_columns(r);
	report_column(r, "unit", NULL);

	if (o.plot)
		p = plot_new("File access by chunk size", "chunk", "MiB/s",
			     PLOT_LOGX | PLOT_LOGY);
	for (d = 0; d < ndirs; d++) {
		struct target t;

		target_open(&t, dirs[d], fsize, maxc);
		for (f = 0; f < F_NOPS; f++) {
			snprintf(name, sizeof(name), "%s %s", dirs[d],
				 fop_names[f]);
			if (p)
				series = plot_series(p, name);
			for (chunk = minc; chunk <= maxc; chunk *= 4) {
				mb_progress(&o, "%s: %s, %llu B", dirs[d],
					    fop_names[f],
					    (unsigned long long)chunk);
				t.chunk = chunk;
				t.off = 0;
				if (measure_run(&m, fop_fns[f], &t, &res))
					die_errno("measure");
				for (i = 0; i < (int)m.samples; i++)
					res.ns[i] = (double)chunk / res.ns[i] *
						    1e9 / (1 << 20);
				stats_compute(res.ns, m.samples, &res.st);
				report_str(r, dirs[d]);
				report_str(r, fop_names[f]);
				report_num(r, (double)chunk);
				measure_cells(r, &res.st, 1);
				report_str(r, "MiB/s");
				if (p)
					plot_point(p, series, (double)chunk,
						   res.st.median);
				measure_free(&res);
			}
		}
		close(t.fd);
		free(t.buf);
	}
	rc = report_end(r) ? EXIT_FAIL : EXIT_OK;
	if (p && plot_write(p, o.plot) < 0)
		rc = EXIT_FAIL;
	free(dirs);
	return rc;
}
