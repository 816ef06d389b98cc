// SPDX-License-Identifier: GPL-2.0
/*
 * osbench fileaccess: local against remote file access.
 *
 * In each directory given (a local file system, an NFS or other network
 * mount, ...) a scratch file is written with O_SYNC writes in chunks of
 * 64 B to 1 MiB, so every write waits for the storage (or the server),
 * then read sequentially and at random unaligned offsets in the same
 * chunk sizes.  Before every read sample the file's pages are dropped
 * from the page cache (POSIX_FADV_DONTNEED) so reads go to the storage;
 * a file system that keeps them (tmpfs) shows memory speed.  Directories
 * are measured one after the other and printed side by side.
 *
 * With --remote DIR a directory on a network file system (the other
 * guest's NFS export) is measured after the local ones, and in text mode
 * a table puts the medians side by side (fileaccess_side.c).  With
 * --syncdev the rows of a file streamed through syncdev by another guest
 * follow (fileaccess_stream.c): the same columns, sequential reads only,
 * because a stream has no seek and no write-back path.
 *
 * Every byte of the scratch file is known (fileaccess_check.c): the
 * writes lay down a pattern that repeats every max-chunk bytes, and after
 * a directory's series the file is read back cold and compared.
 */
#include "fileaccess.h"
#include "micro.h"
#include "plot.h"
#include "sysinfo.h"
#include "util.h"

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct target {
	int fd;			/* O_RDWR | O_SYNC */
	size_t fsize, chunk;
	off_t off;
	uint64_t seed;
	char *buf;		/* the pattern, twice (fa_pattern_new) */
	size_t period;		/* the pattern's period: the largest chunk */
	char *rbuf;		/* where reads go */
};

static int do_sync_write(void *arg, uint64_t n)
{
	struct target *t = arg;

	while (n--) {
		if (t->off + (off_t)t->chunk > (off_t)t->fsize)
			t->off = 0;
		/* What is there already: the file's bytes never change. */
		if (pwrite(t->fd, t->buf + t->off % t->period, t->chunk,
			   t->off) != (ssize_t)t->chunk)
			return fail_errno("O_SYNC write");
		t->off += (off_t)t->chunk;
	}
	return 0;
}

static int drop_cache(struct target *t)
{
	int err;

	/*
	 * Clean pages only: the writes were synchronous, so all are.  A
	 * failure would turn the cold reads into warm ones unnoticed.
	 */
	err = posix_fadvise(t->fd, 0, 0, POSIX_FADV_DONTNEED);
	if (err) {
		errno = err;
		return fail_errno("posix_fadvise(DONTNEED)");
	}
	return 0;
}

static int do_seq_read(void *arg, uint64_t n)
{
	struct target *t = arg;

	if (drop_cache(t))
		return -1;
	while (n--) {
		if (t->off + (off_t)t->chunk > (off_t)t->fsize)
			t->off = 0;
		if (pread(t->fd, t->rbuf, t->chunk, t->off) != (ssize_t)t->chunk)
			return fail_errno("read");
		t->off += (off_t)t->chunk;
	}
	return 0;
}

static int do_rand_read(void *arg, uint64_t n)
{
	struct target *t = arg;
	off_t off;

	if (drop_cache(t))
		return -1;
	while (n--) {
		t->seed = t->seed * 6364136223846793005ULL + 1;
		off = (off_t)((t->seed >> 20) % (t->fsize - t->chunk + 1));
		if (pread(t->fd, t->rbuf, t->chunk, off) != (ssize_t)t->chunk)
			return fail_errno("read");
	}
	return 0;
}

static const measure_fn fop_fns[] = {
	do_sync_write, do_seq_read, do_rand_read,
};

static void target_close(struct target *t)
{
	close(t->fd);
	free(t->buf);
	free(t->rbuf);
}

/* Create the scratch file, filled and on stable storage: 0 or -1. */
static int target_open(struct target *t, const char *dir, size_t fsize,
		       size_t maxchunk)
{
	char path[4096];
	size_t done;

	snprintf(path, sizeof(path), "%s/osbench-fileaccess.%d", dir,
		 (int)getpid());
	t->fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_SYNC, 0600);
	if (t->fd < 0)
		return fail_errno("create %s", path);
	unlink(path);
	t->fsize = fsize;
	t->seed = 1;
	t->buf = fa_pattern_new(maxchunk);
	t->period = maxchunk;
	t->rbuf = xmalloc(maxchunk);
	for (done = 0; done < fsize; done += maxchunk) {
		if (pwrite(t->fd, t->buf, maxchunk, (off_t)done) !=
		    (ssize_t)maxchunk) {
			msg_errno("write %s", path);
			target_close(t);
			return -1;
		}
	}
	return 0;
}

/* What the reader must know about a directory's file system. */
static void fs_note(struct fa_run *run, const char *dir, const char *fs)
{
	if (!strcmp(fs, "tmpfs") || !strcmp(fs, "ramfs"))
		report_note(run->r, dir, "%s: memory, not a disk: O_SYNC "
			    "and dropping the cache reach no storage", fs);
	else if (!strncmp(fs, "nfs", 3))
		report_note(run->r, dir, "%s: a network file system: every "
			    "O_SYNC write and every cold read is a request "
			    "to the server", fs);
}

/* The rows of one operation in one directory: 0 or -1. */
static int measure_op(struct fa_run *run, struct target *t, const char *dir,
		      const char *fs, enum fop f)
{
	struct measure_result res;
	size_t series = fa_series(run, dir, f);
	uint64_t chunk;
	unsigned i;

	for (chunk = run->minc; chunk <= run->maxc; chunk *= 4) {
		mb_progress(run->o, "%s: %s, %llu B", dir, fop_name(f),
			    (unsigned long long)chunk);
		t->chunk = chunk;
		t->off = 0;
		if (measure_run(&run->m, fop_fns[f], t, &res))
			return -1;
		for (i = 0; i < run->m.samples; i++)
			res.ns[i] = (double)chunk / res.ns[i] * 1e9 / (1 << 20);
		stats_compute(res.ns, run->m.samples, &res.st);
		fa_row(run, series, dir, fs, f, chunk, &res.st);
		measure_free(&res);
	}
	return 0;
}

/*
 * The series in one directory, then its scratch file checked: EXIT_OK,
 * EXIT_FAIL or EXIT_CORRUPT (fa_verify), after a message.
 */
static int measure_dir(struct fa_run *run, const char *dir, uint64_t fsize)
{
	struct target t;
	char fs[64];
	int f, rc = 0;

	if (target_open(&t, dir, fsize, run->maxc))
		return EXIT_FAIL;
	sysinfo_fstype(dir, fs, sizeof(fs));
	fs_note(run, dir, fs);
	for (f = 0; f < F_NOPS && !rc; f++)
		rc = measure_op(run, &t, dir, fs[0] ? fs : "?", f);
	rc = rc ? EXIT_FAIL : fa_verify(t.fd, fsize, t.buf, t.period, dir);
	if (rc == EXIT_OK) {
		char key[4200];

		snprintf(key, sizeof(key), "checked %s", dir);
		report_note(run->r, key, "%llu bytes read back cold after "
			    "the series, equal to what was written",
			    (unsigned long long)fsize);
	}
	target_close(&t);
	return rc;
}

/* Every directory must be one: a usage error before anything runs. */
static int check_dir(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return fail("%s: not a directory", dir);
	return 0;
}

static int check_dirs(const struct ctx *c, const char *remote)
{
	int d;

	for (d = 0; d < c->nargs; d++)
		if (check_dir(c->args[d]))
			return -1;
	return remote ? check_dir(remote) : 0;
}

struct fa_opts {
	uint64_t minc, maxc, fsize;	/* 0: the default */
	uint64_t count;
	const char *syncdev;	/* the client's master address */
	const char *serve;	/* the server's file */
	const char *remote;	/* a directory on a network file system */
};

#define FA(field) offsetof(struct fa_opts, field)

static const struct opt fa_options[] = {
	{ .name = "min-chunk", .kind = OPT_SIZE, .arg = "SIZE", .min = 1,
	  .off = FA(minc), .help = "smallest chunk (default 64)" },
	{ .name = "max-chunk", .kind = OPT_SIZE, .arg = "SIZE", .min = 1,
	  .off = FA(maxc), .help = "largest chunk (default 1M)" },
	{ .name = "file-size", .kind = OPT_SIZE, .arg = "SIZE", .min = 1,
	  .off = FA(fsize),
	  .help = "scratch file (default 64M, --quick 8M, --smoke 256K)" },
	{ .name = "syncdev", .kind = OPT_STR, .arg = "IP[:PORT]",
	  .off = FA(syncdev),
	  .help = "add the rows of the file a master serves" },
	{ .name = "syncdev-serve", .kind = OPT_STR, .arg = "FILE",
	  .off = FA(serve), .help = "serve FILE to --syncdev readers" },
	{ .name = "remote", .kind = OPT_STR, .arg = "DIR",
	  .off = FA(remote),
	  .help = "also measure DIR, a network file system's directory\n"
		  "(NFS), after the local ones, and put them side by side" },
	{ .name = "count", .kind = OPT_UINT, .arg = "N", .min = 1,
	  .off = FA(count), .help = "connections to serve (default: until\n"
				     "SIGINT or SIGTERM)" },
	{ 0 },
};

/* The options that go together; EXIT_OK or EXIT_USAGE after a message. */
static int fa_check(const struct ctx *c, const struct fa_opts *a)
{
	if (a->count && !a->serve) {
		msg("--count is an option of --syncdev-serve");
		return EXIT_USAGE;
	}
	if (a->serve && (c->nargs || a->syncdev || a->remote || a->minc ||
			 a->maxc || a->fsize)) {
		msg("--syncdev-serve only serves its file: no directories, "
		    "--syncdev, --remote or sizes with it");
		return EXIT_USAGE;
	}
	if ((a->minc ? a->minc : 64) > (a->maxc ? a->maxc : 1 << 20)) {
		msg("--min-chunk is above --max-chunk");
		return EXIT_USAGE;
	}
	return check_dirs(c, a->remote) ? EXIT_USAGE : EXIT_OK;
}

/* The table's columns and the notes that do not depend on the targets. */
static void fa_table(const struct ctx *c, struct fa_run *run, uint64_t fsize)
{
	run->r = mb_report_new(c, "fileaccess", &run->m);
	report_note(run->r, "file", "%llu KiB scratch file per directory, "
		    "removed at exit", (unsigned long long)fsize >> 10);
	report_note(run->r, "reads", "POSIX_FADV_DONTNEED before every "
		    "sample; random offsets are not aligned");
	report_column(run->r, "dir", NULL);
	report_column(run->r, "fs", NULL);
	report_column(run->r, "op", NULL);
	report_column(run->r, "chunk_bytes", NULL);
	measure_columns(run->r);
	report_column(run->r, "unit", NULL);
}

/* The local directories (or --dir), then the remote one: an exit code. */
static int measure_dirs(struct fa_run *run, const struct ctx *c,
			const char *remote, uint64_t fsize)
{
	int d, rc = EXIT_OK;

	for (d = 0; d < c->nargs && rc == EXIT_OK; d++)
		rc = measure_dir(run, c->args[d], fsize);
	if (!c->nargs)
		rc = measure_dir(run, c->o.dir, fsize);
	if (remote && rc == EXIT_OK)
		rc = measure_dir(run, remote, fsize);
	return rc;
}

static int fa_run_all(const struct ctx *c, const struct fa_opts *a)
{
	struct fa_run run = { .o = &c->o, .minc = a->minc ? a->minc : 64,
			      .maxc = a->maxc ? a->maxc : 1 << 20,
			      .remote = a->remote, .ctx = c };
	uint64_t fsize = a->fsize ? a->fsize :
			 benchopt_pick(&c->o, 64ull << 20, 8ull << 20,
				       256ull << 10);
	struct fa_stream stream;
	int rc;

	if (a->syncdev) {
		rc = fa_stream_open(&stream, a->syncdev);
		if (rc != EXIT_OK)
			return rc;
	}
	if (fsize < run.maxc)
		fsize = run.maxc;
	fsize -= fsize % run.maxc;
	benchopt_measure(&c->o, &run.m);
	if (c->o.plot)
		run.plot = plot_new("File access by chunk size", "chunk",
				    "MiB/s", PLOT_LOGX | PLOT_LOGY);
	fa_table(c, &run, fsize);
	if (c->o.fmt == REPORT_TEXT &&
	    (a->remote || a->syncdev || c->nargs > 1))
		run.side = fa_side_new();
	rc = measure_dirs(&run, c, a->remote, fsize);
	if (rc != EXIT_OK) {
		if (a->syncdev)
			close(stream.fd);
		report_free(run.r);
		plot_free(run.plot);
		fa_side_free(run.side);
		return rc;
	}
	/* The stream's rows, or as many as it gave before it failed. */
	if (a->syncdev)
		rc = fa_stream_measure(&run, &stream);
	if (report_end(run.r) && rc == EXIT_OK)
		rc = EXIT_FAIL;
	if (run.side && fa_side_print(run.side, &run, c->out) &&
	    rc == EXIT_OK)
		rc = EXIT_FAIL;
	/* plot_write() frees the plot. */
	if (run.plot && plot_write(run.plot, c->o.plot) < 0 && rc == EXIT_OK)
		rc = EXIT_FAIL;
	return rc;
}

static const char usage[] =
	"usage: osbench fileaccess [--min-chunk SIZE] [--max-chunk SIZE]\n"
	"                          [--file-size SIZE] [--remote DIR]\n"
	"                          [--syncdev IP[:PORT]] [DIR...]\n"
	"       osbench fileaccess --syncdev-serve FILE [--count N]\n\n"
	"File access in each DIR (default: --dir), side by side: O_SYNC\n"
	"writes, then sequential and random reads (page cache dropped first),\n"
	"in chunks from 64 B to 1 MiB (x4 steps), in MiB/s.  After each\n"
	"directory's series the scratch file is read back cold and checked\n"
	"byte for byte (exit 3 when it differs).\n\n"
	"--remote DIR adds a directory on a network file system (an NFS\n"
	"mount) after the local ones; in text mode a second table puts the\n"
	"medians side by side with the ratio local / remote.  A directory on\n"
	"tmpfs is memory, not a disk: a note says so.\n\n"
	"--syncdev IP[:PORT] adds the rows of a file read through\n"
	"/dev/slave_device from the master at IP, where\n"
	"\"osbench fileaccess --syncdev-serve FILE\" streams FILE once per\n"
	"connection: sequential reads, one connection per sample, after the\n"
	"warm-up connections (whose bytes are XOR-checked) of each chunk\n"
	"size.  O_SYNC writes and random reads do not apply to a one-way\n"
	"stream and are left empty.  The client makes chunk sizes x\n"
	"(warm-up + --reps) connections (its \"syncdev\" note says how\n"
	"many); --count N stops the server after N, else it serves until\n"
	"SIGINT or SIGTERM.\n";

static int fileaccess_run(const struct ctx *c, const void *opts)
{
	const struct fa_opts *a = opts;
	int rc = fa_check(c, a);

	if (rc != EXIT_OK)
		return rc;
	if (a->serve)
		return fa_serve(a->serve, a->count);
	return fa_run_all(c, a);
}

OSBENCH_COMMAND(fileaccess, "fileaccess",
		CMD_TABLE | CMD_PLOT | CMD_SCRATCH | CMD_ALL,
		"O_SYNC writes, sequential and random reads per directory",
		COMMAND_OPTIONS(fa_options, struct fa_opts), .max_args = -1);
