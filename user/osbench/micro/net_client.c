// SPDX-License-Identifier: GPL-2.0
/*
 * What every client part of osbench net (net.h) uses: a connection to
 * the server, a request, round trips as a measure_fn, and the rows and
 * figures of the table.
 */
#include "micro.h"
#include "net.h"
#include "tcp.h"
#include "util.h"

#include <errno.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int net_connect(const struct net_run *run)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_addr = run->addr,
				  .sin_port = htons(run->port) };
	int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		msg_errno("socket");
		return -1;
	}
	while (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		if (errno == EINTR)
			continue;
		msg_errno("connect to the net server at %s:%u (is \"osbench "
			  "net --serve\" running there?)", run->link,
			  run->port);
		close(fd);
		return -1;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

int net_request(int fd, char op, uint32_t size, uint64_t count)
{
	unsigned char req[NET_REQ_BYTES] = { (unsigned char)op }, status;

	put_le(req + 4, size, 4);
	put_le(req + 8, count, 8);
	if (write_full(fd, req, sizeof(req)) < 0 ||
	    read_full(fd, &status, 1) != 1) {
		msg_errno("request '%c' to the net server", op);
		return -1;
	}
	if (status) {
		errno = status;
		msg_errno("the net server refused request '%c'", op);
		return -1;
	}
	return 0;
}

int net_trips(void *arg, uint64_t n)
{
	struct net_trip *t = arg;

	while (n--) {
		if (write_full(t->out, t->buf, t->size) < 0 ||
		    read_full(t->in, t->buf, t->size) != (ssize_t)t->size)
			return fail_errno("round trip to %s", t->out == t->in ?
					  "the TCP server" : "the device");
	}
	return 0;
}

/* The report's headline figures (loopback, or + 1 for the peer). */
static void net_figure(struct net_run *run, const char *transport,
		       const char *what, const struct stats *st,
		       const char *unit)
{
	static const struct {
		const char *transport, *what;
		enum figure fig;
	} figs[] = {
		{ "tcp", "round trip", FIG_TCP_RTT },
		{ "tcp", "connect", FIG_TCP_CONNECT },
		{ "tcp", "bandwidth", FIG_TCP_BW },
		{ "icmp", "round trip", FIG_ICMP_RTT },
		{ "syncdev", "round trip", FIG_DEV_RTT },
		{ "syncdev", "tcp request + device reply", FIG_DEV_RTT },
		{ "syncdev", "bandwidth", FIG_DEV_BW },
	};
	size_t i;

	for (i = 0; st && i < sizeof(figs) / sizeof(figs[0]); i++)
		if (!strcmp(figs[i].transport, transport) &&
		    !strcmp(figs[i].what, what))
			ctx_figure_st(run->c, figs[i].fig + run->peer, st,
				      unit);
}

void net_row(struct net_run *run, const char *transport, const char *what,
	     double bytes, const struct stats *st, const char *unit)
{
	net_figure(run, transport, what, st, unit);
	report_str(run->r, run->link);
	report_str(run->r, transport);
	report_str(run->r, what);
	report_num(run->r, bytes);
	if (st)
		measure_cells(run->r, st, 1);
	else
		measure_cells_none(run->r);
	report_str(run->r, unit);
}

double net_row_samples(struct net_run *run, const char *transport,
		       const char *what, double bytes, double *v, size_t n,
		       const char *unit)
{
	struct stats st;

	if (stats_compute(v, n, &st)) {
		net_row(run, transport, what, bytes, NULL, unit);
		return 0;
	}
	net_row(run, transport, what, bytes, &st, unit);
	return st.median;
}
