// SPDX-License-Identifier: GPL-2.0
/*
 * fileaccess --syncdev: the rows of a file read through /dev/slave_device
 * from another guest, where "fileaccess --syncdev-serve" streams it.
 *
 * The device is a one-way byte stream, so of the file-access experiment's operations only
 * sequential reads exist there: the reader cannot seek (random reads) and
 * has no path back to the file (O_SYNC writes).  Those rows are printed
 * empty, never as figures of something else.
 *
 * A sample is the whole file once: connect (not timed, as open() is not
 * for the local scratch file), then read() in chunk-sized requests, each
 * filled completely as a read of a file is, until the end of the stream.
 * The stream has no request per chunk (unlike NFS), so the chunk size
 * changes the reader's system calls, not the network's round trips.
 *
 * The first connection of every chunk size is a warm-up that also XORs
 * what it reads (xor32.h): all of them must agree, and the server prints
 * the file's XOR to compare with.  The timed connections only count
 * their bytes, so the check costs the figures nothing.
 */
#include "device.h"
#include "fileaccess.h"
#include "micro.h"
#include "netaddr.h"
#include "util.h"
#include "xor32.h"

#include <stdlib.h>
#include <unistd.h>

/* Long enough for a server started at the same time to be listening. */
#define FA_CONNECT_WAIT_MS 30000

/* What one connection delivered. */
struct pass {
	uint64_t bytes;
	uint32_t xor;		/* only when checked */
	double ns;		/* from after the connect to end of stream */
};

int fa_stream_open(struct fa_stream *s, const char *spec)
{
	if (parse_ipv4_port(spec, dev_port(), &s->addr, &s->port))
		return EXIT_USAGE;
	format_ipv4_port(s->where, s->addr, s->port);
	s->fd = dev_open(dev_path(DEV_SLAVE));
	return s->fd < 0 ? EXIT_FAIL : EXIT_OK;
}

static unsigned warmups(const struct fa_run *run)
{
	/* At least one: it is also the connection that checks the data. */
	return run->m.warmup ? run->m.warmup : 1;
}

/* Connections fa_stream_measure() makes: --count for the server. */
static uint64_t fa_stream_connections(const struct fa_run *run)
{
	return fa_nchunks(run) * (warmups(run) + run->m.samples);
}

/* One connection: the whole stream in chunk-sized reads.  0 or -1. */
static int read_stream(struct fa_stream *s, unsigned char *buf,
		       size_t chunk, int check, struct pass *p)
{
	uint64_t t0;
	ssize_t got;

	if (dev_connect(s->fd, s->addr, s->port, 0, FA_CONNECT_WAIT_MS))
		return -1;
	p->bytes = 0;
	p->xor = 0;
	t0 = now_ns();
	do {
		got = read_full(s->fd, buf, chunk);
		if (got < 0) {
			msg_errno("read from %s (master %s) after %llu bytes",
				  dev_path(DEV_SLAVE), s->where,
				  (unsigned long long)p->bytes);
			return -1;
		}
		if (check)
			p->xor ^= xor32(buf, (size_t)got, p->bytes);
		p->bytes += (uint64_t)got;
	} while ((size_t)got == chunk);
	p->ns = (double)(now_ns() - t0);
	if (dev_disconnect(s->fd, s->where))
		return -1;
	if (!p->bytes) {
		msg("the stream from %s is empty: nothing to measure",
		    s->where);
		return -1;
	}
	return 0;
}

/*
 * Compare a connection with the first one (ref->bytes 0: p is the
 * first).  EXIT_OK, EXIT_FAIL for a different length (a cut stream),
 * EXIT_CORRUPT for different bytes.
 */
static int agree(const struct fa_stream *s, struct pass *ref,
		 const struct pass *p, int checked, uint64_t conn)
{
	if (!ref->bytes) {
		*ref = *p;
		return EXIT_OK;
	}
	if (p->bytes != ref->bytes) {
		msg("connection %llu from %s delivered %llu bytes, the first "
		    "one %llu (a cut stream, or the served file changed)",
		    (unsigned long long)conn, s->where,
		    (unsigned long long)p->bytes,
		    (unsigned long long)ref->bytes);
		return EXIT_FAIL;
	}
	if (checked && p->xor != ref->xor) {
		msg("connection %llu from %s: XOR value %08x, the first "
		    "connection's %08x: the bytes differ",
		    (unsigned long long)conn, s->where, p->xor, ref->xor);
		return EXIT_CORRUPT;
	}
	return EXIT_OK;
}

/* The samples of one chunk size, in MiB/s.  EXIT_OK or the failure. */
static int measure_chunk(struct fa_run *run, struct fa_stream *s,
			 unsigned char *buf, size_t chunk, struct pass *ref,
			 uint64_t *conn, double *mib_s)
{
	struct pass p;
	unsigned i, nw = warmups(run);
	int rc;

	for (i = 0; i < nw + run->m.samples; i++) {
		if (read_stream(s, buf, chunk, i < nw, &p))
			return EXIT_FAIL;
		rc = agree(s, ref, &p, i < nw, ++*conn);
		if (rc != EXIT_OK)
			return rc;
		if (i >= nw)
			mib_s[i - nw] = (double)p.bytes / (1 << 20) /
					(p.ns > 0 ? p.ns : 1) * 1e9;
	}
	return EXIT_OK;
}

int fa_stream_measure(struct fa_run *run, struct fa_stream *s)
{
	unsigned char *buf = xmalloc(run->maxc);
	double *mib_s = xcalloc(run->m.samples, sizeof(double));
	struct pass ref = { 0 };
	size_t series;
	struct stats st;
	uint64_t chunk, conn = 0;
	int f, rc = EXIT_OK;

	report_note(run->r, "syncdev",
		    "the file that fileaccess --syncdev-serve streams at %s, "
		    "read through %s: one connection per sample (connect not "
		    "timed), after %u checked warm-up connection(s) per chunk "
		    "size; %llu connections", s->where,
		    dev_path(DEV_SLAVE), warmups(run),
		    (unsigned long long)fa_stream_connections(run));
	report_note(run->r, "syncdev n/a",
		    "sync-write and rand-read rows are empty: a syncdev "
		    "device is a one-way stream, with no seek and no way "
		    "back to the served file");
	for (f = 0; f < F_NOPS && rc == EXIT_OK; f++) {
		series = f == F_SEQ_READ ? fa_series(run, s->where, f) :
					   FA_NO_SERIES;
		for (chunk = run->minc; chunk <= run->maxc; chunk *= 4) {
			if (f != F_SEQ_READ) {
				fa_row(run, FA_NO_SERIES, s->where, "syncdev", f,
				       chunk, NULL);
				continue;
			}
			mb_progress(run->o, "syncdev %s: %s, %llu B",
				    s->where, fop_name(f),
				    (unsigned long long)chunk);
			rc = measure_chunk(run, s, buf, chunk, &ref, &conn,
					   mib_s);
			if (rc != EXIT_OK)
				break;
			stats_compute(mib_s, run->m.samples, &st);
			fa_row(run, series, s->where, "syncdev", f, chunk,
			       &st);
		}
	}
	if (rc == EXIT_OK)
		report_note(run->r, "stream check",
			    "%llu bytes per connection, XOR value %08x on "
			    "every checked connection",
			    (unsigned long long)ref.bytes, ref.xor);
	close(s->fd);
	free(mib_s);
	free(buf);
	return rc;
}
