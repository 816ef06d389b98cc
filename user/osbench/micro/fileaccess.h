/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pieces of osbench fileaccess: the experiment and its local
 * directories (fileaccess.c), the file streamed through syncdev from another
 * guest (fileaccess_stream.c) and the master-side server of that stream
 * (fileaccess_serve.c), the check of the scratch file's bytes
 * (fileaccess_check.c) and the side-by-side table (fileaccess_side.c).
 * All rows go through fa_row() (fileaccess_row.c) so that local, remote
 * and syncdev rows have the same columns and sit side by side.
 */
#ifndef OSBENCH_FILEACCESS_H
#define OSBENCH_FILEACCESS_H

#include "benchopt.h"
#include "measure.h"
#include "plot.h"
#include "report.h"

#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>

enum fop { F_SYNC_WRITE, F_SEQ_READ, F_RAND_READ, F_NOPS };

/* The operation's name in the table ("sync-write"). */
static inline const char *fop_name(enum fop f)
{
	static const char *const names[F_NOPS] = {
		"sync-write", "seq-read", "rand-read",
	};

	return names[f];
}

/* One run of the experiment: what every target's rows need. */
struct fa_run {
	const struct benchopt *o;
	struct measure m;
	struct report *r;
	uint64_t minc, maxc;	/* chunk sizes, x4 steps */
	struct plot *plot;	/* NULL without --plot */
	const char *remote;	/* the --remote directory, or NULL */
	const struct ctx *ctx;	/* where the report's figures go */
	const char *first;	/* the first directory measured */
	struct fa_side *side;	/* NULL: no side-by-side table */
};

#define FA_NO_SERIES ((size_t)-1)

/* Chunk sizes of the run (minc, 4 minc, ... <= maxc). */
size_t fa_nchunks(const struct fa_run *run);

/*
 * A new plot line named "where op" (MiB/s by chunk size), or FA_NO_SERIES
 * when nothing is plotted.
 */
size_t fa_series(struct fa_run *run, const char *where, enum fop f);

/*
 * One row: where (a directory or the syncdev address), its file system,
 * the operation, the chunk size and the MiB/s samples' summary, or st NULL
 * for an operation that does not apply there (all figures empty).  The
 * median goes on plot line series unless it is FA_NO_SERIES.
 */
void fa_row(struct fa_run *run, size_t series, const char *where,
	    const char *fs, enum fop f, uint64_t chunk,
	    const struct stats *st);

/*
 * The scratch file's content: period bytes of pattern.h's stream, twice
 * in a row (a chunk of up to period bytes at file offset o is the window
 * at o % period).  Free with free().
 */
char *fa_pattern_new(size_t period);

/*
 * Read the whole file back (cached pages dropped first) and compare it
 * with the pattern.  EXIT_OK, EXIT_FAIL (a read failed or came short) or
 * EXIT_CORRUPT (the bytes differ), after a message naming where.
 */
int fa_verify(int fd, uint64_t fsize, const char *pattern, size_t period,
	      const char *where);

/* The side-by-side table: medians by target, operation and chunk size. */
struct fa_side;
struct fa_side *fa_side_new(void);
/* Record one row (st NULL: does not apply); s NULL is a no-op. */
void fa_side_record(struct fa_side *s, const struct fa_run *run,
		    const char *where, const char *fs, enum fop f,
		    uint64_t chunk, const struct stats *st);
/* Free s without printing (NULL is a no-op). */
void fa_side_free(struct fa_side *s);
/* Print the table as text on out and free s.  0, or -1 on a write error. */
int fa_side_print(struct fa_side *s, const struct fa_run *run, FILE *out);

/* A file streamed by a master guest's fileaccess --syncdev-serve. */
struct fa_stream {
	int fd;			/* /dev/slave_device, not connected */
	struct in_addr addr;
	uint16_t port;		/* 0: the module's */
	char where[32];		/* "a.b.c.d:port" */
};

/*
 * Parse "a.b.c.d[:port]" and open the slave device, so that a mistake
 * shows before the local directories are measured.  Returns EXIT_OK or
 * the exit code after a message.
 */
int fa_stream_open(struct fa_stream *s, const char *spec);

/*
 * The rows of the stream: sequential reads measured, one connection per
 * sample, and the operations a stream has not as empty rows.  Closes the
 * device.  Returns EXIT_OK, EXIT_FAIL (connection, short stream) or
 * EXIT_CORRUPT (the connections delivered different bytes).
 */
int fa_stream_measure(struct fa_run *run, struct fa_stream *s);

/*
 * The master side: stream file once per connection accepted on the
 * master device, count connections (0: until SIGINT or SIGTERM).
 */
int fa_serve(const char *file, uint64_t count);

#endif
