// SPDX-License-Identifier: GPL-2.0
/*
 * osbench net: round-trip time, connection setup and teardown, and peak
 * bandwidth, over loopback (a server forked here) or to another guest
 * that runs "osbench net --serve", for userspace TCP, ICMP echo and the
 * syncdev device.  The exercises and the protocol are in net.h.
 */
#include "micro.h"
#include "net.h"
#include "netaddr.h"
#include "tcp.h"
#include "util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

struct net_opts {
	const char *peer;
	bool serve, no_device;
	uint64_t port, count, msg, bytes;
};

#define NO(field) offsetof(struct net_opts, field)
static const struct opt net_options[] = {
	{ .name = "peer", .kind = OPT_STR, .arg = "IP[:PORT]", .off = NO(peer),
	  .help = "measure against the net server there (default: over\n"
		  "loopback, against a server forked here)" },
	{ .name = "serve", .kind = OPT_FLAG, .off = NO(serve),
	  .help = "be the server other guests measure against" },
	{ .name = "port", .kind = OPT_UINT, .arg = "PORT", .off = NO(port),
	  .def = "2394", .min = 1, .max = 65535,
	  .help = "the server's TCP port" },
	{ .name = "count", .kind = OPT_UINT, .arg = "N", .off = NO(count),
	  .min = 1, .help = "--serve: stop after N client runs (default:\n"
			    "at SIGINT or SIGTERM)" },
	{ .name = "msg", .kind = OPT_SIZE, .arg = "SIZE", .off = NO(msg),
	  .def = "64", .min = 1, .max = 1 << 20,
	  .help = "message size of the round trips" },
	{ .name = "bytes", .kind = OPT_SIZE, .arg = "SIZE", .off = NO(bytes),
	  .min = 1, .max = 0xffffffffu,
	  .help = "bytes per bandwidth sample (default 64M, --quick\n"
		  "16M, --smoke 1M)" },
	{ .name = "no-device", .kind = OPT_FLAG, .off = NO(no_device),
	  .help = "leave out the syncdev rows" },
	{ 0 },
};

static const char usage[] =
	"usage: osbench net [--peer IP[:PORT]] [--msg SIZE] [--bytes SIZE]\n"
	"                   [--no-device]\n"
	"       osbench net --serve [--port PORT] [--count N]\n\n"
	"Network figures: round-trip time of --msg-byte TCP messages and of\n"
	"ICMP echo (ping), TCP connect and close times, and peak TCP\n"
	"bandwidth; then the same through syncdev (/dev/slave_device here,\n"
	"the server's /dev/master_device) when the module is loaded.\n"
	"Without --peer everything runs over loopback against a server\n"
	"forked here; with --peer against \"osbench net --serve\" on the\n"
	"other guest.  Without the two-way stream the device round trip is\n"
	"a TCP request answered through the device, and the device's\n"
	"one-way time is derived from it (docs/microbench.md).\n";

static int serve(const struct net_opts *a)
{
	struct in_addr any = { .s_addr = htonl(INADDR_ANY) };
	int lfd = tcp_listen_at(any, (uint16_t)a->port, 128);

	if (lfd < 0)
		return EXIT_FAIL;
	msg("serving on TCP port %llu", (unsigned long long)a->port);
	return net_serve(lfd, a->count, 1);
}

/* Loopback: a server in a child on an ephemeral port of 127.0.0.1. */
static pid_t fork_server(struct net_run *run)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);
	int lfd;
	pid_t pid;

	run->addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = tcp_listen_at(run->addr, 0, 128);
	if (lfd < 0 || getsockname(lfd, (struct sockaddr *)&sa, &len))
		return -1;
	run->port = ntohs(sa.sin_port);
	pid = fork();
	if (pid == 0)
		_exit(net_serve(lfd, 1, 0));
	close(lfd);
	return pid;
}

static void net_table(struct net_run *run, const struct net_opts *a)
{
	run->r = mb_report_new(run->c, "net", &run->m);
	report_note(run->r, "server", "%s:%u, %s", run->link, run->port,
		    a->peer ? "osbench net --serve there" :
		    "forked here (loopback)");
	report_note(run->r, "tcp", "TCP_NODELAY; round trip of %u-byte "
		    "messages; connect and close timed apart; bandwidth: "
		    "%llu bytes per connection, counted by the server",
		    run->msg, (unsigned long long)run->bytes);
	report_column(run->r, "link", NULL);
	report_column(run->r, "transport", NULL);
	report_column(run->r, "what", NULL);
	report_column(run->r, "bytes", NULL);
	measure_columns(run->r);
	report_column(run->r, "unit", NULL);
}

/* Every row; the server is told the run is over whatever happened. */
static int client(struct net_run *run, const struct net_opts *a)
{
	int rc, fd;

	net_table(run, a);
	rc = net_tcp(run);
	if (rc == EXIT_OK)
		rc = net_ping(run);
	if (rc == EXIT_OK && !a->no_device)
		rc = net_dev(run);
	fd = net_connect(run);
	if (fd >= 0) {
		net_request(fd, 'B', 0, 0);
		close(fd);
	}
	if (report_end(run->r) && rc == EXIT_OK)
		rc = EXIT_FAIL;
	return rc;
}

static int net_run(const struct ctx *c, const void *opts)
{
	const struct net_opts *a = opts;
	struct net_run run = { .c = c, .msg = (uint32_t)a->msg,
			       .port = (uint16_t)a->port, .link = "loopback" };
	char where[32];
	pid_t pid = 0;
	int rc, status;

	if (a->serve)
		return a->peer ? (msg("--serve takes no --peer"), EXIT_USAGE) :
				 serve(a);
	if (a->count) {
		msg("--count is an option of --serve");
		return EXIT_USAGE;
	}
	run.bytes = a->bytes ? a->bytes :
		    benchopt_pick(&c->o, 64 << 20, 16 << 20, 1 << 20);
	benchopt_measure(&c->o, &run.m);
	if (a->peer) {
		if (parse_ipv4_port(a->peer, run.port, &run.addr, &run.port))
			return EXIT_USAGE;
		run.link = inet_ntop(AF_INET, &run.addr, where, sizeof(where));
		run.peer = 1;
	} else if ((pid = fork_server(&run)) < 0) {
		return EXIT_FAIL;
	}
	rc = client(&run, a);
	if (pid > 0) {
		if (rc != EXIT_OK)
			kill(pid, SIGTERM);
		waitpid(pid, &status, 0);
	}
	return rc;
}

OSBENCH_COMMAND(net, "net", CMD_TABLE | CMD_ALL,
		"TCP, ICMP and device round trip, connect, bandwidth",
		COMMAND_OPTIONS(net_options, struct net_opts));
