/* SPDX-License-Identifier: GPL-2.0 */
/*
 * osbench net: network figures over loopback or to another guest that
 * runs "osbench net --serve" (net.c): round-trip time of small TCP
 * messages (net_tcp.c) and of ICMP echo (net_ping.c), connection setup
 * and teardown, peak bandwidth, and the same through the syncdev device
 * (net_dev.c), each with what every client part uses (net_client.c).
 * The server (net_serve.c) answers one request per TCP
 * connection; the request names the exercise.
 *
 * Request: 16 bytes, little-endian: op (1 byte), 3 zero bytes, size
 * (4 bytes), count (8 bytes).  The server answers one status byte (0: it
 * will do it, else an errno value) and then does it:
 *
 *   'E' echo size-byte messages back until end of stream
 *   'S' read until end of stream, then send the byte count (8 bytes)
 *   'W' count times: accept on the master device, write size pattern
 *       bytes (pattern.h), disconnect
 *   'K' count times: accept on the master device, write one byte (the
 *       slave reads it before it disconnects, so that no connection is
 *       gone before its accept, which would skip it), disconnect
 *   'M' accept on the master device; then for every size-byte message
 *       read from this TCP connection write one to the device (a
 *       reply through the device to a request over TCP)
 *   'R' accept on the master device and echo size-byte messages on it
 *       (needs the two-way stream)
 *   'B' a client run is over (--count counts these)
 *
 * A connection that ends before its request is the client's connect
 * test: the server closes it.
 */
#ifndef OSBENCH_NET_H
#define OSBENCH_NET_H

#include "experiment.h"
#include "measure.h"
#include "report.h"

#include <netinet/in.h>
#include <stdint.h>

#define NET_PORT 2394
#define NET_REQ_BYTES 16

/* One client run: where to, how, and where the rows go. */
struct net_run {
	const struct ctx *c;
	struct measure m;
	struct report *r;
	struct in_addr addr;	/* the server */
	uint16_t port;
	const char *link;	/* "loopback" or the peer's address */
	uint32_t msg;		/* message size of the round trips */
	uint64_t bytes;		/* bytes per bandwidth sample */
	double tcp_rtt_us;	/* the TCP round trip's median, 0: none */
	int peer;		/* 1: against --peer, 0: loopback */
};

/*
 * Round trips as a measure_fn: a size-byte message written to out and
 * one read back from in (the same socket, or a request over TCP and the
 * reply through the device).  0, or -1 after a message.
 */
struct net_trip {
	int out, in;
	unsigned char *buf;
	size_t size;
};
int net_trips(void *arg, uint64_t n);

/* A connected TCP socket to the run's server (TCP_NODELAY), or -1. */
int net_connect(const struct net_run *run);

/*
 * Send a request on fd and read the server's status.  0, or -1 after a
 * message (errno: the server's answer when it refused).
 */
int net_request(int fd, char op, uint32_t size, uint64_t count);

/* One row: transport, what, message bytes, samples in unit; st NULL: -. */
void net_row(struct net_run *run, const char *transport, const char *what,
	     double bytes, const struct stats *st, const char *unit);

/* Summarise n samples (in place) into a row and return the median. */
double net_row_samples(struct net_run *run, const char *transport,
		       const char *what, double bytes, double *v, size_t n,
		       const char *unit);

/* The rows of each transport; EXIT_OK or the failure, after a message. */
int net_tcp(struct net_run *run);
int net_ping(struct net_run *run);
int net_dev(struct net_run *run);

/*
 * Serve clients on the listening socket lfd until SIGINT/SIGTERM or
 * count client runs ('B' requests; 0: no limit), saying so at the end
 * when verbose.  Returns the exit code.
 */
int net_serve(int lfd, uint64_t count, int verbose);

#endif
