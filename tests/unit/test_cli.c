// SPDX-License-Identifier: GPL-2.0
/* Address and command-line parsing of master and slave. */
#include "check.h"
#include "netaddr.h"
#include "util.h"
#include "cli/xfer_cli.h"
#include "handshake.h"
#include "cli/xferopt.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

static int addr_is(const char *s, const char *want_ip, uint16_t want_port)
{
	struct in_addr a, w;
	uint16_t port = 0;

	inet_pton(AF_INET, want_ip, &w);
	return parse_ipv4_port(s, 2325, &a, &port) == 0 &&
	       a.s_addr == w.s_addr && port == want_port;
}

static int addr_bad(const char *s)
{
	struct in_addr a = { 0x55555555 };
	uint16_t port = 77;

	return parse_ipv4_port(s, 2325, &a, &port) == -1 &&
	       a.s_addr == 0x55555555 && port == 77;
}

static void test_addr(void)
{
	static const char *bad[] = {
		"", ":2325", "localhost", "1.2.3", "1.2.3.4.5", "256.1.1.1",
		"01.2.3.4", "0x7f.0.0.1", "1.2.3.4:", "1.2.3.4:0",
		"1.2.3.4:65536", "1.2.3.4:80x", "1.2.3.4:-1", "::1",
		"[::1]:80", "1.2.3.4 ", " 1.2.3.4", "1.2.3.4:80:90",
	};
	size_t i, nbad = 0;
	char buf[32];
	struct in_addr a;

	CHECK(addr_is("127.0.0.1", "127.0.0.1", 2325),
	      "address without port gets the default");
	CHECK(addr_is("10.0.2.15:1", "10.0.2.15", 1), "address port 1");
	CHECK(addr_is("192.168.1.200:65535", "192.168.1.200", 65535),
	      "address port 65535");
	CHECK(addr_is("0.0.0.0:2326", "0.0.0.0", 2326), "address 0.0.0.0");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (!addr_bad(bad[i])) {
			printf("# accepted '%s'\n", bad[i]);
			nbad++;
		}
	}
	CHECK(nbad == 0, "%zu malformed addresses rejected, output untouched",
	      sizeof(bad) / sizeof(bad[0]));
	inet_pton(AF_INET, "10.1.2.3", &a);
	CHECK(!strcmp(format_ipv4_port(buf, a, 65535), "10.1.2.3:65535"),
	      "format_ipv4_port");
}

/* Parse a NULL-terminated list of words as the program name's argv. */
#define PARSE(role, a, ...)						\
	({								\
		char *argv_[] = { "prog", __VA_ARGS__, NULL };		\
		xfer_parse_args(sizeof(argv_) / sizeof(argv_[0]) - 1,	\
				argv_, role, a);			\
	})

static void test_args(void)
{
	struct xfer_args a;

	CHECK(PARSE(ROLE_MASTER, &a, "2", "f1", "f2", "mmap") == 0 &&
	      a.nfiles == 2 && !strcmp(a.files[0], "f1") &&
	      !strcmp(a.files[1], "f2") && a.method == METHOD_MMAP &&
	      !strcmp(a.opt.device, "/dev/master_device") && a.opt.buffer == 0 &&
	      !a.opt.verbose, "master 2 f1 f2 mmap");
	CHECK(PARSE(ROLE_MASTER, &a, "1", "f1", "fcntl", "-b", "4K", "-v",
		    "--device", "/dev/x") == 0 &&
	      a.method == METHOD_FCNTL && a.opt.buffer == 4096 && a.opt.verbose &&
	      !strcmp(a.opt.device, "/dev/x"), "master options after the method");
	CHECK(PARSE(ROLE_MASTER, &a, "--buffer=2M", "1", "f1", "fcntl") == 0 &&
	      a.opt.buffer == 2u << 20, "master --buffer=2M before N");
	CHECK(PARSE(ROLE_MASTER, &a, "1", "--", "-f", "fcntl") == 0 &&
	      !strcmp(a.files[0], "-f"), "master -- before a file named -f");
	CHECK(PARSE(ROLE_SLAVE, &a, "1", "o1", "fcntl", "10.0.0.2:3000",
		    "-t", "500", "--wait", "2000") == 0 &&
	      a.nfiles == 1 && a.method == METHOD_FCNTL &&
	      a.addr.s_addr == htonl(0x0a000002) && a.port == 3000 &&
	      a.opt.timeout_ms == 500 && a.opt.wait_ms == 2000 &&
	      !strcmp(a.opt.device, "/dev/slave_device"), "slave with options");
	CHECK(PARSE(ROLE_SLAVE, &a, "1", "o1", "mmap", "127.0.0.1") == 0 &&
	      a.port == 0, "slave without port: the module's port");
	CHECK(PARSE(ROLE_SLAVE, &a, "1", "o1", "mmap", "127.0.0.1") == 0 &&
	      a.opt.wait_ms == 30000, "slave waits 30 s for its master by default");
	CHECK(PARSE(ROLE_SLAVE, &a, "1", "o1", "mmap", "127.0.0.1", "-w", "0") ==
	      0 && a.opt.wait_ms == 0, "slave --wait 0: fail at once");
	CHECK(PARSE(ROLE_MASTER, &a, "1", "f1", "mmap") == 0 && a.opt.wait_ms == 0,
	      "master: no wait");

	CHECK(PARSE(ROLE_MASTER, &a, "--help") == 1, "master --help");
	CHECK(PARSE(ROLE_SLAVE, &a, "1", "-h") == 1, "slave -h");
}

static void test_args_refused(void)
{
	struct xfer_args a;

	CHECK(PARSE(ROLE_MASTER, &a, "2", "f1", "mmap") == -1,
	      "master N=2 with one file");
	CHECK(PARSE(ROLE_MASTER, &a, "1", "f1", "f2", "mmap") == -1,
	      "master N=1 with two files");
	CHECK(PARSE(ROLE_MASTER, &a, "0", "fcntl") == -1, "master N=0");
	CHECK(PARSE(ROLE_MASTER, &a, "x", "f1", "fcntl") == -1,
	      "master N not a number");
	CHECK(PARSE(ROLE_MASTER, &a, "1", "f1", "read") == -1,
	      "master bad method");
	CHECK(PARSE(ROLE_MASTER, &a, "1", "f1", "MMAP") == -1,
	      "master method is case-sensitive");
	CHECK(PARSE(ROLE_MASTER, &a, "1", "f1", "mmap", "-t", "5") == -1,
	      "master rejects -t");
	CHECK(PARSE(ROLE_MASTER, &a, "1", "f1", "mmap", "--wait", "5") == -1,
	      "master rejects --wait");
	CHECK(PARSE(ROLE_MASTER, &a, "1", "f1", "mmap", "-b", "0") == -1,
	      "master buffer 0");
	CHECK(PARSE(ROLE_MASTER, &a, "1", "f1", "mmap", "-b") == -1,
	      "master -b without a value");
	CHECK(PARSE(ROLE_MASTER, &a, "1", "f1", "mmap", "--bogus") == -1,
	      "master unknown long option");
	CHECK(PARSE(ROLE_SLAVE, &a, "1", "o1", "mmap") == -1,
	      "slave without an address");
	CHECK(PARSE(ROLE_SLAVE, &a, "1", "o1", "mmap", "host") == -1,
	      "slave with a host name");
	CHECK(PARSE(ROLE_SLAVE, &a, "2", "o1", "mmap", "1.2.3.4") == -1,
	      "slave N=2 with one file");
	CHECK(PARSE(ROLE_SLAVE, &a, "1", "o1", "1.2.3.4", "mmap") == -1,
	      "slave method and address swapped");
	CHECK(PARSE(ROLE_SLAVE, &a, "1", "o1", "mmap", "1.2.3.4", "-t",
		    "0") == -1, "slave timeout 0");
}

static void test_progress_timeout(void)
{
	struct xfer_args a;

	CHECK(PARSE(ROLE_MASTER, &a, "1", "f1", "mmap") == 0 &&
	      a.opt.progress_s == 0, "master: no --progress-timeout, the module's");
	CHECK(PARSE(ROLE_MASTER, &a, "1", "f1", "mmap", "--progress-timeout",
		    "7") == 0 && a.opt.progress_s == 7,
	      "master --progress-timeout 7");
	CHECK(PARSE(ROLE_SLAVE, &a, "--progress-timeout=4294967", "1", "o1",
		    "fcntl", "1.2.3.4", "-t", "300") == 0 &&
	      a.opt.progress_s == 4294967 && a.opt.timeout_ms == 300,
	      "slave --progress-timeout next to the connect timeout -t");
	CHECK(PARSE(ROLE_SLAVE, &a, "1", "o1", "fcntl", "1.2.3.4",
		    "--progress-timeout", "4294968") == -1,
	      "--progress-timeout above 4294967 s (u32 ms) rejected");
	CHECK(PARSE(ROLE_MASTER, &a, "1", "f1", "fcntl",
		    "--progress-timeout", "0") == -1,
	      "--progress-timeout 0 rejected");
	CHECK(PARSE(ROLE_MASTER, &a, "1", "f1", "fcntl",
		    "--progress-timeout", "2s") == -1,
	      "--progress-timeout takes whole seconds");
	CHECK(PARSE(ROLE_MASTER, &a, "1", "f1", "fcntl", "--timeout",
		    "5") == -1, "master --timeout (connect) is the slave's");
}

static void test_security_options(void)
{
	struct xfer_args a;

	CHECK(PARSE(ROLE_MASTER, &a, "1", "f1", "fcntl") == 0 &&
	      !a.opt.key_path && !a.opt.peer.s_addr && !a.opt.no_sync,
	      "no --key, --peer, --no-sync: the course's command line");
	CHECK(PARSE(ROLE_MASTER, &a, "1", "f1", "fcntl", "--key", "k",
		    "--peer", "10.0.0.9") == 0 && !strcmp(a.opt.key_path, "k") &&
	      a.opt.peer.s_addr == htonl(0x0a000009),
	      "master --key k --peer 10.0.0.9");
	CHECK(PARSE(ROLE_SLAVE, &a, "1", "o1", "mmap", "1.2.3.4", "--no-sync",
		    "--key=k") == 0 && a.opt.no_sync && !strcmp(a.opt.key_path, "k"),
	      "slave --no-sync --key=k");
	CHECK(PARSE(ROLE_MASTER, &a, "1", "f1", "fcntl", "--no-sync") == -1,
	      "master --no-sync rejected (the slave's)");
	CHECK(PARSE(ROLE_MASTER, &a, "1", "f1", "fcntl", "--copy") == 0 &&
	      a.opt.copy, "master fcntl --copy");
	CHECK(PARSE(ROLE_SLAVE, &a, "1", "o1", "fcntl", "1.2.3.4", "--copy") == 0 &&
	      a.opt.copy, "slave fcntl --copy");
	CHECK(PARSE(ROLE_SLAVE, &a, "1", "o1", "mmap", "1.2.3.4", "--copy") == -1,
	      "slave mmap --copy rejected (fcntl only)");
	CHECK(PARSE(ROLE_MASTER, &a, "1", "f1", "fcntl") == 0 && !a.opt.copy,
	      "no --copy: sendfile()/splice() for large files");
	CHECK(PARSE(ROLE_SLAVE, &a, "1", "o1", "mmap", "1.2.3.4", "--peer",
		    "host") == -1, "--peer with a host name rejected");
	CHECK(PARSE(ROLE_SLAVE, &a, "1", "o1", "mmap", "1.2.3.4", "--peer",
		    "0.0.0.0") == -1, "--peer 0.0.0.0 rejected");
}

/* --handshake-timeout: milliseconds, the default from the environment. */
static void test_handshake_timeout(void)
{
	struct xfer_args a;

	unsetenv("SYNCDEV_HANDSHAKE_MS");
	CHECK(PARSE(ROLE_MASTER, &a, "1", "f1", "fcntl") == 0 &&
	      a.opt.handshake_ms == 10000, "handshake deadline: 10000 ms by default");
	setenv("SYNCDEV_HANDSHAKE_MS", "1500", 1);
	CHECK(PARSE(ROLE_SLAVE, &a, "1", "o1", "fcntl", "1.2.3.4") == 0 &&
	      a.opt.handshake_ms == 1500, "SYNCDEV_HANDSHAKE_MS=1500: the default");
	setenv("SYNCDEV_HANDSHAKE_MS", "0", 1);
	CHECK(PARSE(ROLE_SLAVE, &a, "1", "o1", "fcntl", "1.2.3.4") == 0 &&
	      a.opt.handshake_ms == 10000, "SYNCDEV_HANDSHAKE_MS=0: ignored (10000 ms)");
	unsetenv("SYNCDEV_HANDSHAKE_MS");
	CHECK(PARSE(ROLE_MASTER, &a, "1", "f1", "fcntl", "--handshake-timeout",
		    "250") == 0 && a.opt.handshake_ms == 250,
	      "master --handshake-timeout 250");
	CHECK(PARSE(ROLE_SLAVE, &a, "1", "o1", "fcntl", "1.2.3.4",
		    "--handshake-timeout", "0") == -1 &&
	      PARSE(ROLE_SLAVE, &a, "1", "o1", "fcntl", "1.2.3.4",
		    "--handshake-timeout", "3600001") == -1,
	      "--handshake-timeout 0 and 3600001 rejected");
}

/*
 * Strangers dropped: each counted, the first 3 logged, then one line per
 * 10 s with how many were not.
 */
static void test_drop_log(void)
{
	const uint64_t s = 1000000000ull;
	struct xfer_drops d = { 0 };
	int i, lines = 0;

	for (i = 0; i < 200; i++) {
		msg_forget();
		xfer_note_drop(&d, 100 * s + (uint64_t)i * (s / 100), "did not greet",
			       "no hello");
		lines += *msg_last(NULL) != '\0';
	}
	CHECK(d.count == 200 && lines == 3,
	      "200 strangers within 2 s: all counted, 3 lines (%d)", lines);
	msg_forget();
	xfer_note_drop(&d, 111 * s, "did not greet", "no hello");
	CHECK(strstr(msg_last(NULL), "(201 so far, 197 not logged): no hello") != NULL,
	      "10 s after the last line: one more, with the count not logged");
	msg_forget();
	xfer_note_drop(&d, 112 * s, "did not greet", "no hello");
	CHECK(*msg_last(NULL) == '\0' && d.quiet == 1,
	      "1 s after it: counted, not logged");
}

/* tcpcopy's own options for the shared parser: -p PORT and -c. */
static int own_parse(int c, const char *arg, void *ctx)
{
	int *seen = ctx;

	*seen = c == 'p' ? atoi(arg) : c == 'c' ? -1 : -2;
	return 0;
}

#define XPARSE(set, own, v, ...)					\
	({								\
		char *argv_[] = { "prog", __VA_ARGS__, NULL };		\
		xferopt_parse(sizeof(argv_) / sizeof(argv_[0]) - 1,	\
			      argv_, "prog", set, own, v);		\
	})

/* One table for every program: tcpcopy's set, its own options beside. */
static void test_xferopt(void)
{
	static const struct option own_long[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "crc", no_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	int seen = 0;
	const struct xferopt_own own = { own_long, "p:c", own_parse, &seen };
	struct xferopt v = { 0 };

	CHECK(XPARSE(XO_TCPCOPY, &own, &v, "send", "f", "--device", "-b", "4K",
		     "-w", "9") == 6 && v.via_device && !v.device &&
	      v.buffer == 4096 && v.wait_ms == 9,
	      "tcpcopy set: the bare --device a switch, -b and -w as master's");
	memset(&v, 0, sizeof(v));
	CHECK(XPARSE(XO_TCPCOPY, &own, &v, "--device=/dev/x", "recv") == 2 &&
	      v.via_device && !strcmp(v.device, "/dev/x"),
	      "tcpcopy set: --device=PATH names the device");
	CHECK(XPARSE(XO_TCPCOPY, &own, &v, "-p", "77", "send") == 3 &&
	      seen == 77, "tcpcopy set: its own -p reaches its parser");
	CHECK(XPARSE(XO_TCPCOPY, &own, &v, "send", "-t", "5") == -1,
	      "tcpcopy set: -t (the slave's connect timeout) refused, not --tar");
	CHECK(XPARSE(XO_TCPCOPY, &own, &v, "send", "-d") == -1,
	      "tcpcopy set: no -d");
	CHECK(XPARSE(XO_TCPCOPY, &own, &v, "send", "--peer", "1.2.3.4") == -1,
	      "tcpcopy set: --peer (master's and slave's) refused");
	CHECK(XPARSE(XO_TCPCOPY, &own, &v, "send", "--help") == XFEROPT_HELP,
	      "tcpcopy set: --help");
	CHECK(XPARSE(XO_MASTER, NULL, &v, "--device", "/dev/y", "1") == 3 &&
	      !strcmp(v.device, "/dev/y"), "master set: --device PATH");
	CHECK(XPARSE(XO_MASTER, NULL, &v, "-p", "7") == -1,
	      "master set: tcpcopy's -p unknown");
}

int main(void)
{
	test_addr();
	test_handshake_timeout();
	test_drop_log();
	test_args();
	test_args_refused();
	test_security_options();
	test_progress_timeout();
	test_xferopt();
	return check_done();
}
