// SPDX-License-Identifier: GPL-2.0
/*
 * The userspace TCP rows of osbench net.
 *
 *  - round trip: one connection with TCP_NODELAY; a message of --msg
 *    bytes goes out and the server's echo comes back, back to back, in
 *    the shared measurement loop (auto-sized samples, warm-up, median);
 *  - setup and teardown: connect() (the SYN, SYN-ACK, ACK exchange: one
 *    round trip, done by the kernels before any accept) and close() (the
 *    FIN is queued, close does not wait for the peer) timed apart, k
 *    connections per sample;
 *  - bandwidth: one connection per sample sends --bytes in 128 KiB
 *    writes, shuts its side down and waits for the server's count of
 *    the bytes it read, which must be all of them: the time includes the
 *    last byte's arrival.
 */
#include "net.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int tcp_rtt(struct net_run *run)
{
	struct net_trip t = { .size = run->msg };
	struct measure_result res;
	int fd = net_connect(run), rc = EXIT_FAIL;

	if (fd < 0 || net_request(fd, 'E', run->msg, 0))
		goto out;
	t.out = t.in = fd;
	t.buf = xcalloc(1, t.size);
	if (measure_run(&run->m, net_trips, &t, &res) == 0) {
		stats_scale(&res.st, 1e-3);
		net_row(run, "tcp", "round trip", t.size, &res.st, "us");
		run->tcp_rtt_us = res.st.median;
		measure_free(&res);
		rc = EXIT_OK;
	}
	free(t.buf);
out:
	if (fd >= 0)
		close(fd);
	return rc;
}

/* Connections per setup/teardown sample. */
static unsigned connects_per_sample(const struct net_run *run)
{
	return (unsigned)benchopt_pick(&run->c->o, 200, 100, 10);
}

static int tcp_connect(struct net_run *run)
{
	unsigned i, s, k = connects_per_sample(run);
	unsigned total = run->m.warmup + run->m.samples;
	double *setup = xcalloc(total, sizeof(double));
	double *down = xcalloc(total, sizeof(double));
	uint64_t t0, t1;
	int fd;

	for (s = 0; s < total; s++) {
		for (i = 0; i < k; i++) {
			t0 = now_ns();
			fd = net_connect(run);
			t1 = now_ns();
			if (fd < 0)
				return EXIT_FAIL;
			close(fd);
			setup[s] += (double)(t1 - t0) / k / 1e3;
			down[s] += (double)(now_ns() - t1) / k / 1e3;
		}
	}
	net_row_samples(run, "tcp", "connect", 0, setup + run->m.warmup,
			run->m.samples, "us");
	net_row_samples(run, "tcp", "close", 0, down + run->m.warmup,
			run->m.samples, "us");
	free(setup);
	free(down);
	return EXIT_OK;
}

/* One bandwidth sample in MiB/s, or -1 after a message. */
static double send_bytes(struct net_run *run, const unsigned char *buf)
{
	unsigned char le[8];
	uint64_t left = run->bytes, t0, got;
	size_t n;
	int fd = net_connect(run);

	if (fd < 0 || net_request(fd, 'S', 0, 0))
		return -1;
	t0 = now_ns();
	for (; left; left -= n) {
		n = left < (1u << 17) ? (size_t)left : 1u << 17;
		if (write_full(fd, buf, n) < 0) {
			msg_errno("send to %s", run->link);
			return -1;
		}
	}
	shutdown(fd, SHUT_WR);
	if (read_full(fd, le, sizeof(le)) != (ssize_t)sizeof(le)) {
		msg("%s: no byte count from the server", run->link);
		return -1;
	}
	got = get_le(le, 8);
	close(fd);
	if (got != run->bytes) {
		msg("%s: the server read %llu bytes of %llu", run->link,
		    (unsigned long long)got, (unsigned long long)run->bytes);
		return -1;
	}
	return (double)run->bytes / (1 << 20) / ((double)(now_ns() - t0) /
						  1e9);
}

static int tcp_bandwidth(struct net_run *run)
{
	unsigned i, total = run->m.warmup + run->m.samples;
	unsigned char *buf = xcalloc(1, 1 << 17);
	double *v = xcalloc(total, sizeof(double));

	for (i = 0; i < total; i++) {
		v[i] = send_bytes(run, buf);
		if (v[i] < 0)
			return EXIT_FAIL;
	}
	net_row_samples(run, "tcp", "bandwidth", (double)run->bytes,
			v + run->m.warmup, run->m.samples, "MiB/s");
	free(v);
	free(buf);
	return EXIT_OK;
}

int net_tcp(struct net_run *run)
{
	int rc = tcp_rtt(run);

	if (rc == EXIT_OK)
		rc = tcp_connect(run);
	if (rc == EXIT_OK)
		rc = tcp_bandwidth(run);
	return rc;
}
