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

	t.in = t.out = net_connect(run);
	if (t.in < 0)
		return EXIT_FAIL;
	if (net_request(t.in, 'E', run->msg, 0)) {
		close(t.in);
		return EXIT_FAIL;
	}
	t.buf = xcalloc(1, t.size);
	if (measure_run(&run->m, net_trips, &t, &res)) {
		free(t.buf);
		close(t.in);
		return EXIT_FAIL;
	}
	stats_scale(&res.st, 1e-3);
	net_row(run, "tcp", "round trip", t.size, &res.st, "us");
	run->tcp_rtt_us = res.st.median;
	measure_free(&res);
	free(t.buf);
	close(t.in);
	return EXIT_OK;
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
	int fd = 0;

	for (s = 0; s < total && fd >= 0; s++) {
		for (i = 0; i < k && fd >= 0; i++) {
			t0 = now_ns();
			fd = net_connect(run);
			t1 = now_ns();
			if (fd < 0)
				break;
			close(fd);
			setup[s] += (double)(t1 - t0) / k / 1e3;
			down[s] += (double)(now_ns() - t1) / k / 1e3;
		}
	}
	if (fd >= 0) {
		net_row_samples(run, "tcp", "connect", 0,
				setup + run->m.warmup, run->m.samples, "us");
		net_row_samples(run, "tcp", "close", 0, down + run->m.warmup,
				run->m.samples, "us");
	}
	free(setup);
	free(down);
	return fd >= 0 ? EXIT_OK : EXIT_FAIL;
}

/* One bandwidth sample in MiB/s, or -1 after a message. */
static double send_bytes(struct net_run *run, const unsigned char *buf)
{
	unsigned char le[8];
	uint64_t left = run->bytes, t0, got;
	size_t n;
	int fd = net_connect(run);

	if (fd < 0)
		return -1;
	if (net_request(fd, 'S', 0, 0)) {
		close(fd);
		return -1;
	}
	t0 = now_ns();
	for (; left; left -= n) {
		n = left < (1u << 17) ? (size_t)left : 1u << 17;
		if (write_full(fd, buf, n) < 0) {
			msg_errno("send to %s", run->link);
			close(fd);
			return -1;
		}
	}
	shutdown(fd, SHUT_WR);
	n = (size_t)read_full(fd, le, sizeof(le));
	close(fd);
	if (n != sizeof(le)) {
		msg("%s: no byte count from the server", run->link);
		return -1;
	}
	got = get_le(le, 8);
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

	int rc = EXIT_OK;

	for (i = 0; i < total && rc == EXIT_OK; i++)
		if ((v[i] = send_bytes(run, buf)) < 0)
			rc = EXIT_FAIL;
	if (rc == EXIT_OK)
		net_row_samples(run, "tcp", "bandwidth", (double)run->bytes,
				v + run->m.warmup, run->m.samples, "MiB/s");
	free(v);
	free(buf);
	return rc;
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
