/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The I/O experiments of osbench (docs/io.md): the course programs run,
 * run2 and fast, the block-size sweep, cached vs cold, system-call costs,
 * the master-side feed of the device mode, and the bench-io comparison.
 */
#ifndef OSBENCH_IO_H
#define OSBENCH_IO_H

#include "benchopt.h"
#include "experiment.h"
#include "plot.h"
#include "report.h"
#include "util.h"

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

/* The largest block run and the sweep accept. */
#define IO_MAX_BLOCK (1ull << 30)

/*
 * Where the experiments read from: a file, or /dev/slave_device connected
 * to a master that streams the pattern (pattern.h) with "osbench feed".
 */
struct io_source {
	bool device;		/* --device */
	const char *master;	/* --master "a.b.c.d[:port]" (implies --device) */
	const char *path;	/* the file operand; NULL: the device */
	struct in_addr addr;	/* master, parsed by io_source_operand() */
	uint16_t port;
};

/* The options every reading experiment shares, for its option table. */
#define IO_SOURCE_OPTIONS(type, field)					\
	{ .name = "device", .kind = OPT_FLAG,				\
	  .off = offsetof(type, field.device),				\
	  .help = "read /dev/slave_device, fed by \"osbench feed\"" },	\
	{ .name = "master", .kind = OPT_STR, .arg = "IP[:PORT]",	\
	  .off = offsetof(type, field.master),				\
	  .help = "the master of --device (default 127.0.0.1)" }

/* Bounds of a block size option (OPT_SIZE): 1 byte to IO_MAX_BLOCK. */
#define IO_BLOCK .kind = OPT_SIZE, .arg = "SIZE", .min = 1, .max = IO_MAX_BLOCK

/*
 * Take the file operand (args[0]) unless --device; 0, or -1 after a
 * message (a usage error: wrong count, bad master address).
 */
int io_source_operand(struct io_source *s, int nargs, char **args);
/*
 * The operand count of a command taking [file] then nnames numbers
 * (names: "block_size", ...): 0 when it fits, else -1 after a message
 * that names what is missing or left over, and the usage form.
 */
int io_operands_check(const struct io_source *s, int nargs, char **args,
		      const char *const *names, int nnames, const char *form);
/* Open (and for the device connect) for reading; -1 after a message. */
int io_source_open(const struct io_source *s);
/* The file name, or "/dev/slave_device (master a.b.c.d)". */
const char *io_source_name(const struct io_source *s);

/*
 * The time of one run as --quick and --smoke change it: full, a fifth
 * with --quick, a fiftieth with --smoke.  (The number of runs is the
 * descriptor's .reps: c->o.reps.)
 */
uint64_t io_pick_time(const struct benchopt *o, uint64_t full_ns);

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

/* Allocate the buffer: 0, or -1 after a message when memory is short. */
int blockreader_init(struct blockreader *br, int fd, size_t block,
		     bool do_xor);
void blockreader_free(struct blockreader *br);
/*
 * Read count blocks (each one until full or end of input); *done gets the
 * number of full blocks.  0, or -1 with errno on a read error.
 */
int blockreader_read(struct blockreader *br, uint64_t count, uint64_t *done);
/* Back to offset 0 (files only); clears the counters.  0 or -1. */
int blockreader_rewind(struct blockreader *br);

/* Parse a block size in [1, IO_MAX_BLOCK] with K/M/G suffixes; -1 after
 * a message naming what. */
int io_parse_block(const char *what, const char *s, uint64_t *out);

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
	uint64_t file_bytes;	/* the file's size; 0: a stream */
	unsigned int short_runs;	/* points flagged by point_flag() */
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

/* Measure one block size: 0, or -1 after a message (I/O error). */
int point_measure(struct point_cfg *cfg, size_t block, struct point *pt);
/*
 * A point's flag for its table: "short run" when the whole file was read
 * in less than half the target time (the file is too small for it: the
 * clock and the per-call cost weigh in), counted in cfg; else "".
 */
const char *point_flag(struct point_cfg *cfg, const struct point *pt);
/* The sweep is done after block size bs: bs covers the whole file. */
int point_last(const struct point_cfg *cfg, uint64_t bs);
/* The note that says which rows are flagged and why (none: no note). */
void point_flag_note(struct report *r, const struct point_cfg *cfg);

/* Sweep options shared by sweep and cache. */
struct sweep_opts {
	struct io_source src;
	uint64_t min_block, max_block;
	uint64_t target_ns;	/* 0: the mode's */
	uint64_t max_bytes;
	bool cold;		/* sweep --cold (cache measures both) */
	bool fadvise_only;
};

/* The options of sweep's table that cache has too. */
#define SWEEP_OPTIONS							\
	{ .name = "min", IO_BLOCK, .def = "1",				\
	  .off = offsetof(struct sweep_opts, min_block),		\
	  .help = "smallest block" },					\
	{ .name = "max", IO_BLOCK, .def = "128M",			\
	  .off = offsetof(struct sweep_opts, max_block),		\
	  .help = "largest block" },					\
	{ .name = "time", .kind = OPT_SECONDS, .arg = "S",		\
	  .off = offsetof(struct sweep_opts, target_ns),		\
	  .help = "time of one run (default 0.1, --quick 0.02, "	\
		  "--smoke 0.002)" },					\
	{ .name = "bytes", .kind = OPT_SIZE, .arg = "SIZE", .min = 1,	\
	  .def = "256M", .off = offsetof(struct sweep_opts, max_bytes),	\
	  .help = "most bytes per run" },				\
	{ .name = "fadvise", .kind = OPT_FLAG,				\
	  .off = offsetof(struct sweep_opts, fadvise_only),		\
	  .help = "drop only this file's pages (posix_fadvise), even\n"	\
		  "as root: spares other processes' caches" }

/* What sweep and cache do differently around the same run. */
struct sweep_kind {
	struct report *(*table)(const struct ctx *c);
	struct plot *(*plot)(const struct sweep_opts *o);
	/* The rows; *drop the cache drop method used (-1: none).  0 or -1. */
	int (*points)(const struct sweep_opts *o, struct point_cfg *cfg,
		      struct report *r, struct plot *p, int *drop);
	/* The last notes; the exit code (the device's data checked). */
	int (*notes)(struct report *r, const struct point_cfg *cfg, int drop);
};

/*
 * Check the options, open the input, measure every block size as k says
 * and print the table (and draw the plot): the exit code.
 */
int sweep_drive(const struct ctx *c, const struct sweep_opts *o,
		const struct sweep_kind *k);

#endif
