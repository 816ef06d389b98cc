/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The I/O experiments of osbench (docs/io.md): the course programs run,
 * run2 and fast, the block-size sweep, cached vs cold, system-call costs,
 * the master-side feed of the device mode, and the bench-io comparison.
 */
#ifndef OSBENCH_IO_H
#define OSBENCH_IO_H

#include "benchopt.h"
#include "report.h"

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

/* Entry points, registered in commands.c. */
int io_run_main(int argc, char **argv);
int io_run2_main(int argc, char **argv);
int io_fast_main(int argc, char **argv);
int io_sweep_main(int argc, char **argv);
int io_cache_main(int argc, char **argv);
int io_syscalls_main(int argc, char **argv);
int io_feed_main(int argc, char **argv);
int io_dropcache_main(int argc, char **argv);
int io_bench_main(int argc, char **argv);

/* The largest block run and the sweep accept. */
#define IO_MAX_BLOCK (1ull << 30)
#define MIB (1024.0 * 1024.0)

/*
 * Where the experiments read from: a file, or /dev/slave_device connected
 * to a master that streams the pattern (pattern.h) with "osbench feed".
 */
struct io_source {
	const char *path;	/* NULL: the device */
	const char *master;	/* device: "a.b.c.d[:port]" */
	struct in_addr addr;	/* master, parsed by io_source_operand() */
	uint16_t port;
};

/* The long options every reading experiment shares. */
#define IO_SOURCE_OPTIONS						\
	{ "device", no_argument, NULL, 'D' },				\
	{ "master", required_argument, NULL, 'M' }

/*
 * Handle option c (from IO_SOURCE_OPTIONS) with optarg: returns 1 when it
 * was one of them, 0 otherwise.
 */
int io_source_opt(struct io_source *s, int c, const char *arg);
/* Take the file operand when not --device; exits 2 on a wrong count. */
void io_source_operand(struct io_source *s, int nargs, char **args);
/* Open (and for the device connect) for reading; exits on failure. */
int io_source_open(const struct io_source *s);
/* The file name, or "/dev/slave_device (master a.b.c.d)". */
const char *io_source_name(const struct io_source *s);

/*
 * The table-printing experiments (sweep, cache, syscalls, bench-io) take
 * the options they share with the micro-benchmarks from benchopt.h:
 * --csv, --json, --plot, --reps, --dir, --quick, --smoke and --help are
 * removed from argv before getopt_long parses the command's own.  --help
 * prints usage and exits 0; a bad value, --plot or --dir to a command
 * without IO_OPT_PLOT or IO_OPT_DIR, and --reps above max_reps exit 2.
 */
enum io_opt_flags {
	IO_OPT_PLOT = 1,	/* the command draws a curve */
	IO_OPT_DIR = 2,		/* the command writes scratch files */
};
void io_common_parse(struct benchopt *o, int *argc, char **argv,
		     void (*usage)(FILE *f), unsigned int flags,
		     unsigned int max_reps);
/* Help lines for --csv, --json, --quick, --smoke, and --plot if asked. */
void io_common_usage(FILE *f, unsigned int flags);
/*
 * The defaults those modes change: the time of one run (full, a fifth
 * with --quick, a fiftieth with --smoke) and the number of timed runs
 * (--reps, else full, else 3 in the short modes).
 */
uint64_t io_pick_time(const struct benchopt *o, uint64_t full_ns);
unsigned int io_pick_reps(const struct benchopt *o, unsigned int full);

/*
 * Reads fixed-size blocks and keeps count of the system calls, bytes
 * and, when asked, the XOR check value of everything read.
 */
struct blockreader {
	int fd;
	unsigned char *buf;
	size_t block;
	bool do_xor;
	uint64_t offset;	/* bytes read since open or the last rewind */
	uint64_t calls;		/* read() calls */
	uint32_t xor;		/* xor32 of the bytes read, when do_xor */
};

/* Allocate the buffer; exits when memory is short. */
void blockreader_init(struct blockreader *br, int fd, size_t block,
		      bool do_xor);
void blockreader_free(struct blockreader *br);
/*
 * Read count blocks (each one until full or end of input); *done gets the
 * number of full blocks.  0, or -1 with errno on a read error.
 */
int blockreader_read(struct blockreader *br, uint64_t count, uint64_t *done);
/* Back to offset 0 (files only); clears the counters.  0 or -1. */
int blockreader_rewind(struct blockreader *br);

/* Parse a block size in [1, IO_MAX_BLOCK] with K/M/G suffixes; exits 2. */
size_t io_parse_block(const char *what, const char *s);
/* Print usage to stdout and exit 0 for c == 'h' (--help), else stderr, 2. */
void io_usage_exit(void (*usage)(FILE *f), int c) __attribute__((noreturn));
/* Parse seconds as a decimal ("0.1"); exits 2 when not positive. */
uint64_t io_parse_seconds(const char *what, const char *s);

/*
 * One point of the sweep: read blocks of one size, size the run by
 * doubling until it takes target_ns (also the warm-up), then time reps
 * runs of that many blocks.  Files are re-read from offset 0 each time;
 * the device is a stream whose XOR is checked against the pattern.
 */
struct point_cfg {
	int fd;
	bool stream;		/* the device: no rewind, no cache to drop */
	bool cold;		/* drop the page cache before each run */
	bool global_drop;	/* may use /proc/sys/vm/drop_caches */
	uint64_t target_ns;	/* time of one run */
	unsigned int reps;
	uint64_t max_bytes;	/* bytes of one run at most */
	uint64_t stream_offset;	/* stream: bytes consumed so far (in/out) */
	uint32_t stream_xor;	/* stream: their XOR (in/out) */
};

struct point {
	size_t block;
	uint64_t bytes;		/* read by one run */
	unsigned int reps;
	double mib_s[3];	/* median, min, max */
	double calls_s;		/* median read() calls per second */
	double seconds;		/* median time of one run */
	int drop_method;	/* dropcache() method, -1 when warm */
};

/* Measure one block size; exits on I/O errors. */
void point_measure(struct point_cfg *cfg, size_t block, struct point *pt);

/* Sweep options shared by sweep and cache. */
struct sweep_opts {
	struct io_source src;
	struct benchopt common;	/* output, --plot, mode */
	size_t min_block, max_block;
	uint64_t target_ns;
	unsigned int reps;
	uint64_t max_bytes;
	bool cold;		/* sweep --cold (cache measures both) */
	bool fadvise_only;
};

/* Parse sweep/cache's command line (usage_fn prints --help). */
void sweep_parse(int argc, char **argv, struct sweep_opts *o,
		 void (*usage_fn)(FILE *f), bool allow_device);
/* Open the input and set up the points as the options say. */
void sweep_open(const struct sweep_opts *o, struct point_cfg *cfg);
/* Notes common to sweep and cache reports. */
void sweep_notes(struct report *r, const struct sweep_opts *o);

#endif
