/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The I/O experiments of osbench (docs/io.md): the course programs run,
 * run2 and fast, the block-size sweep, cached vs cold, system-call costs,
 * the master-side feed of the device mode, and the bench-io comparison.
 */
#ifndef OSBENCH_IO_H
#define OSBENCH_IO_H

#include "report.h"

#include <stdbool.h>
#include <stddef.h>
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

/* Output format and plot file shared by the table-printing commands. */
struct io_output {
	enum report_format fmt;
	const char *plot;	/* NULL: no plot */
};

#define IO_OUTPUT_OPTIONS						\
	{ "csv", no_argument, NULL, 'C' },				\
	{ "json", no_argument, NULL, 'J' },				\
	{ "plot", required_argument, NULL, 'P' }

/* Like io_source_opt for IO_OUTPUT_OPTIONS; exits 2 on a bad plot name. */
int io_output_opt(struct io_output *o, int c, const char *arg);

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
/* Parse seconds as a decimal ("0.1"); exits 2 when not positive. */
uint64_t io_parse_seconds(const char *what, const char *s);

#endif
