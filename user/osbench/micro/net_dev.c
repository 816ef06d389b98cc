// SPDX-License-Identifier: GPL-2.0
/*
 * The syncdev rows of osbench net: the same figures through the device
 * (/dev/slave_device here, the server's /dev/master_device there), the
 * exercise agreed over a TCP connection to the server (net.h).
 *
 *  - bandwidth: one device connection per sample; the server writes
 *    --bytes of pattern.h's stream, this side reads to the end of the
 *    stream; every connection must bring all the bytes, and the warm-up
 *    ones the pattern's XOR value;
 *  - setup and teardown: dev_connect (the module's connect, which
 *    returns once the kernels' handshake is done) and dev_disconnect,
 *    timed apart, k per sample; between them the slave reads one byte
 *    the server writes after its accept (untimed), so that every
 *    connection is accepted and counted;
 *  - round trip: with the two-way stream (both modules), a message goes
 *    out through the slave device and the server's echo comes back on
 *    it.  Without it the device carries one way only: the request goes
 *    over the TCP connection and the server answers through the device,
 *    so a sample is a TCP one-way trip plus a device one-way trip, and
 *    the device's one-way time is estimated as that minus half the TCP
 *    round trip measured just before (a row of its own, "derived").
 */
#include "device.h"
#include "net.h"
#include "pattern.h"
#include "util.h"
#include "xor32.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Long enough for the server's accept to come. */
#define DEV_WAIT_MS 30000

static int dev_connect_run(const struct net_run *run, int fd)
{
	return dev_connect(fd, run->addr, 0, 0, DEV_WAIT_MS);
}

/* One connection's stream: MiB/s, or -1 after a message. */
static double read_stream(struct net_run *run, int fd, unsigned char *buf,
			  int check)
{
	uint64_t got = 0, t0;
	uint32_t x = 0;
	ssize_t n;

	if (dev_connect_run(run, fd))
		return -1;
	t0 = now_ns();
	while ((n = read(fd, buf, 1 << 17)) > 0 || (n < 0 && errno == EINTR)) {
		if (check && n > 0)
			x ^= xor32(buf, (size_t)n, got);
		got += n > 0 ? (uint64_t)n : 0;
	}
	if (n < 0 || got != run->bytes) {
		msg("device stream from %s: %llu bytes of %llu%s", run->link,
		    (unsigned long long)got, (unsigned long long)run->bytes,
		    n < 0 ? " (read failed)" : "");
		return -1;
	}
	if (check && x != pattern_xor(run->bytes)) {
		msg("device stream from %s: the bytes differ", run->link);
		errno = EBADMSG;
		return -1;
	}
	t0 = now_ns() - t0;
	if (dev_disconnect(fd, dev_path(DEV_SLAVE)))
		return -1;
	return (double)got / (1 << 20) / ((double)t0 / 1e9);
}

static int dev_bandwidth(struct net_run *run, int fd)
{
	unsigned i, total = run->m.warmup + run->m.samples;
	unsigned char *buf = xmalloc(1 << 17);
	double *v = xcalloc(total, sizeof(double));
	int ctl = net_connect(run), rc = EXIT_OK;

	if (ctl < 0 || net_request(ctl, 'W', (uint32_t)run->bytes, total))
		return EXIT_FAIL;
	for (i = 0; i < total && rc == EXIT_OK; i++) {
		v[i] = read_stream(run, fd, buf, i < run->m.warmup || i == 0);
		if (v[i] < 0)
			rc = errno == EBADMSG ? EXIT_CORRUPT : EXIT_FAIL;
	}
	if (rc == EXIT_OK) {
		net_row_samples(run, "syncdev", "bandwidth",
				(double)run->bytes, v + run->m.warmup,
				run->m.samples, "MiB/s");
		report_note(run->r, "syncdev check", "%llu bytes per device "
			    "connection; the checked ones equal the pattern",
			    (unsigned long long)run->bytes);
	}
	close(ctl);
	free(v);
	free(buf);
	return rc;
}

static int dev_connects(struct net_run *run, int fd)
{
	unsigned i, s, k = (unsigned)benchopt_pick(&run->c->o, 50, 20, 5);
	unsigned total = run->m.warmup + run->m.samples;
	double *up = xcalloc(total, sizeof(double));
	double *down = xcalloc(total, sizeof(double));
	int ctl = net_connect(run);
	uint64_t t0, t1;
	char byte;

	if (ctl < 0 || net_request(ctl, 'K', 0, (uint64_t)total * k))
		return EXIT_FAIL;
	for (s = 0; s < total; s++) {
		for (i = 0; i < k; i++) {
			t0 = now_ns();
			if (dev_connect_run(run, fd))
				return EXIT_FAIL;
			t1 = now_ns();
			/* The server's byte: it has accepted this one. */
			if (read_full(fd, &byte, 1) != 1) {
				msg_errno("device connection %u from %s",
					  s * k + i, run->link);
				return EXIT_FAIL;
			}
			up[s] += (double)(t1 - t0) / k / 1e3;
			t1 = now_ns();
			if (dev_disconnect(fd, dev_path(DEV_SLAVE)))
				return EXIT_FAIL;
			down[s] += (double)(now_ns() - t1) / k / 1e3;
		}
	}
	net_row_samples(run, "syncdev", "connect", 0, up + run->m.warmup,
			run->m.samples, "us");
	net_row_samples(run, "syncdev", "close", 0, down + run->m.warmup,
			run->m.samples, "us");
	close(ctl);
	free(up);
	free(down);
	return EXIT_OK;
}

/* The one-way estimate of each sample: minus half the TCP round trip. */
static void derived_row(struct net_run *run, const struct measure_result *res)
{
	double *v = xcalloc(run->m.samples, sizeof(double));
	unsigned i;

	for (i = 0; i < run->m.samples; i++)
		v[i] = res->ns[i] / 1e3 - run->tcp_rtt_us / 2;
	net_row_samples(run, "syncdev", "one-way (derived)", run->msg, v,
			run->m.samples, "us");
	free(v);
}

static int dev_rtt(struct net_run *run, int fd)
{
	struct net_trip t = { .in = fd, .size = run->msg };
	struct measure_result res;
	int two_way = dev_two_way(fd, DEV_SLAVE);
	int ctl = net_connect(run);

	if (ctl < 0)
		return EXIT_FAIL;
	if (two_way && net_request(ctl, 'R', run->msg, 0)) {
		if (errno != EOPNOTSUPP)
			return EXIT_FAIL;
		close(ctl);
		two_way = 0;
		ctl = net_connect(run);
	}
	if (!two_way && (ctl < 0 || net_request(ctl, 'M', run->msg, 0)))
		return EXIT_FAIL;
	if (dev_connect_run(run, fd))
		return EXIT_FAIL;
	t.out = two_way ? fd : ctl;
	t.buf = xcalloc(1, t.size);
	if (measure_run(&run->m, net_trips, &t, &res)) {
		free(t.buf);
		close(ctl);
		return EXIT_FAIL;
	}
	stats_scale(&res.st, 1e-3);
	net_row(run, "syncdev", two_way ? "round trip" :
		"tcp request + device reply", run->msg, &res.st, "us");
	if (!two_way && run->tcp_rtt_us > 0)
		derived_row(run, &res);
	report_note(run->r, "syncdev round trip", "%s", two_way ?
		    "the two-way stream: request and reply through the device" :
		    "one-way device (no two-way stream on both sides): request "
		    "over TCP, reply through the device; derived one-way = that "
		    "- TCP round trip / 2");
	measure_free(&res);
	free(t.buf);
	dev_disconnect(fd, dev_path(DEV_SLAVE));
	close(ctl);
	return EXIT_OK;
}

int net_dev(struct net_run *run)
{
	unsigned long long port;
	int fd, rc;

	if (dev_module_param("port", &port)) {
		report_note(run->r, "syncdev", "no rows: the module is not "
			    "loaded here");
		return EXIT_OK;
	}
	fd = dev_open(dev_path(DEV_SLAVE));
	if (fd < 0) {
		report_note(run->r, "syncdev", "no rows: %s cannot be opened "
			    "(is the module loaded?)", dev_path(DEV_SLAVE));
		return EXIT_OK;
	}
	rc = dev_rtt(run, fd);
	if (rc == EXIT_OK)
		rc = dev_connects(run, fd);
	if (rc == EXIT_OK)
		rc = dev_bandwidth(run, fd);
	close(fd);
	return rc;
}
