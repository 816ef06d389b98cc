// SPDX-License-Identifier: GPL-2.0
/*
 * fsteps DIR DEV WAY [REPS]: what each step of the slave's durable
 * confirmation costs on the file system of DIR, whose disk is DEV (its
 * name under /sys/block): the course's ten small files written unnamed
 * (O_TMPFILE), their data flushed, linked to their names, the names
 * flushed.  WAY is how the data and the names are flushed:
 *
 *   syncfs2   syncfs, the links, syncfs again (the slave on ext2)
 *   dirfsync  syncfs, the links, fsync of the directory (the slave on a
 *             file system that journals a link's inode with its entry)
 *   merged    each file's write-back started as it is written, then
 *             waited for (sync_file_range, no flush), the links, fsync
 *             of the directory: one journal commit for both
 *   renamed   the files named (a temporary name each, closed), syncfs,
 *             the renames, fsync of the directory (the slave's named
 *             files, but on ext2, where that fsync does not flush)
 *   nosync    no flush at all (slave --no-sync)
 *
 * For each step the median time over REPS (default 11) rounds and the
 * device's flush requests per round (the 16th and 17th fields of
 * /sys/block/DEV/stat, Linux 5.5 and later), one line each:
 *   WAY STEP: MS ms, FLUSHES flushes, FLUSH_MS ms in them
 * A measurement, not a test: it asserts nothing.  Exit 0, 1 on a failed
 * call (with its message), 2 on a usage error.
 */
#include "util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NFILES 10
#define NSTEPS 4
#define MAXREPS 101

static const unsigned int sizes[NFILES] = {
	32, 859, 1343, 1663, 2042, 3065, 2808, 4056, 3659, 4619
};
static const char *const steps[NSTEPS] = { "write", "data", "names", "dirs" };

enum way { SYNCFS2, DIRFSYNC, MERGED, RENAMED, NOSYNC };

/* The block device's flush requests and their ms since boot. */
static void flushes(const char *dev, unsigned long long *n,
		    unsigned long long *ms)
{
	unsigned long long f[17];
	char path[128];
	FILE *fp;
	int i;

	snprintf(path, sizeof(path), "/sys/block/%s/stat", dev);
	fp = fopen(path, "r");
	if (!fp)
		die_errno("cannot open %s", path);
	for (i = 0; i < 17; i++)
		if (fscanf(fp, "%llu", &f[i]) != 1)
			die(EXIT_FAIL, "%s: fewer than 17 fields (Linux 5.5 or later has them)", path);
	fclose(fp);
	*n = f[15];
	*ms = f[16];
}

struct sample {
	uint64_t ns[NSTEPS];
	unsigned long long fl[NSTEPS], flms[NSTEPS];
};

struct round {
	const char *dev;
	struct sample *s;
	int step;
	uint64_t t0;
	unsigned long long f0, m0;
};

static void step_begin(struct round *r, int step)
{
	r->step = step;
	flushes(r->dev, &r->f0, &r->m0);
	r->t0 = now_ns();
}

static void step_end(struct round *r)
{
	unsigned long long f, m;

	r->s->ns[r->step] = now_ns() - r->t0;
	flushes(r->dev, &f, &m);
	r->s->fl[r->step] = f - r->f0;
	r->s->flms[r->step] = m - r->m0;
}

/*
 * The files in dir: unnamed and held open, or named .t.N and closed
 * (fds[i] -1); with start, each one's write-back started (sync_file_range,
 * no wait) as soon as it is written.
 */
static void write_files(int dir, int *fds, int named, int start)
{
	static char buf[8192];
	char tmp[16];
	int i;

	memset(buf, 'x', sizeof(buf));
	for (i = 0; i < NFILES; i++) {
		snprintf(tmp, sizeof(tmp), ".t.%d", i + 1);
		fds[i] = named ? openat(dir, tmp, O_CREAT | O_EXCL | O_WRONLY |
					O_CLOEXEC, 0600) :
			 openat(dir, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
		if (fds[i] < 0)
			die_errno("creating a file in the directory");
		if (write_full(fds[i], buf, sizes[i]) < 0)
			die_errno("write");
		if (start && sync_file_range(fds[i], 0, 0, SYNC_FILE_RANGE_WRITE))
			die_errno("sync_file_range");
		if (named) {
			close(fds[i]);
			fds[i] = -1;
		}
	}
}

/* Each file's data written and waited for, without a flush. */
static void wait_files(int *fds)
{
	int i;

	for (i = 0; i < NFILES; i++)
		if (sync_file_range(fds[i], 0, 0, SYNC_FILE_RANGE_WAIT_BEFORE |
				    SYNC_FILE_RANGE_WRITE |
				    SYNC_FILE_RANGE_WAIT_AFTER))
			die_errno("sync_file_range");
}

static void link_files(int dir, int *fds)
{
	char name[16], tmp[16];
	int i;

	for (i = 0; i < NFILES; i++) {
		snprintf(name, sizeof(name), "o.%d", i + 1);
		snprintf(tmp, sizeof(tmp), ".t.%d", i + 1);
		if (fds[i] < 0) {
			if (renameat(dir, tmp, dir, name))
				die_errno("rename %s", tmp);
			continue;
		}
		if (linkat(fds[i], "", dir, name, AT_EMPTY_PATH))
			die_errno("linkat %s", name);
		close(fds[i]);
	}
}

static void one_round(int top, int rep, enum way way, struct round *r)
{
	char sub[16];
	int dir, fds[NFILES];

	snprintf(sub, sizeof(sub), "r%d", rep);
	if (mkdirat(top, sub, 0755))
		die_errno("mkdir %s", sub);
	dir = openat(top, sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0 || syncfs(dir))
		die_errno("directory %s", sub);
	step_begin(r, 0);
	write_files(dir, fds, way == RENAMED, way == MERGED);
	step_end(r);
	step_begin(r, 1);
	if ((way == SYNCFS2 || way == DIRFSYNC || way == RENAMED) && syncfs(dir))
		die_errno("syncfs");
	if (way == MERGED)
		wait_files(fds);
	step_end(r);
	step_begin(r, 2);
	link_files(dir, fds);
	step_end(r);
	step_begin(r, 3);
	if ((way == SYNCFS2 && syncfs(dir)) ||
	    ((way == DIRFSYNC || way == MERGED || way == RENAMED) && fsync(dir)))
		die_errno("flushing the names");
	step_end(r);
	close(dir);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void report(const char *way, const struct sample *s, int reps)
{
	uint64_t v[MAXREPS];
	unsigned long long fl, flms;
	int st, i;

	for (st = 0; st < NSTEPS; st++) {
		fl = flms = 0;
		for (i = 0; i < reps; i++) {
			v[i] = s[i].ns[st];
			fl += s[i].fl[st];
			flms += s[i].flms[st];
		}
		qsort(v, (size_t)reps, sizeof(v[0]), cmp_u64);
		printf("%s %s: %.2f ms, %.1f flushes, %.2f ms in them\n", way,
		       steps[st], (double)v[reps / 2] / 1e6, (double)fl / reps,
		       (double)flms / reps);
	}
}

int main(int argc, char **argv)
{
	static const char *const ways[] = {
		"syncfs2", "dirfsync", "merged", "renamed", "nosync"
	};
	static struct sample s[MAXREPS];
	struct round r;
	uint64_t reps = 11;
	int top, w, i;

	set_progname(argv[0]);
	if (argc == 2 && !strcmp(argv[1], "--help")) {
		printf("usage: fsteps DIR DEV syncfs2|dirfsync|merged|renamed|nosync [REPS]\n");
		return EXIT_OK;
	}
	if (argc < 4 || argc > 5)
		die(EXIT_USAGE, "usage: fsteps DIR DEV syncfs2|dirfsync|merged|renamed|nosync [REPS]");
	for (w = 0; w < 5 && strcmp(argv[3], ways[w]); w++)
		;
	if (w == 5)
		die(EXIT_USAGE, "unknown way '%s': syncfs2, dirfsync, merged, renamed or nosync", argv[3]);
	if (argc == 5 && parse_uint(argv[4], 1, MAXREPS, &reps))
		die(EXIT_USAGE, "REPS must be 1 to %d, not '%s'", MAXREPS, argv[4]);
	top = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (top < 0)
		die_errno("cannot open directory %s", argv[1]);
	r.dev = argv[2];
	for (i = 0; i < (int)reps; i++) {
		r.s = &s[i];
		one_round(top, i, (enum way)w, &r);
	}
	report(ways[w], s, (int)reps);
	return EXIT_OK;
}
