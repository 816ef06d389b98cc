// SPDX-License-Identifier: GPL-2.0
/*
 * devcheck: every error of the device contract (docs/protocol.md) with its
 * exact errno, one "PASS name" / "FAIL name: why" line each.  Runs in the
 * test guest with the module loaded and no other user of the devices.
 *
 * Calls that block (accept, recv, a connect that times out) run in a child
 * process that the parent kills after WATCHDOG_S seconds, so a call that
 * never returns is a failure and not a hung test; nothing measures time.
 */
#include "../unit/check.h"
#include "devtest.h"
#include "util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "syncdev_abi.h"

#define WATCHDOG_S	30
/* Ports nobody uses in the guest: refused, and the full-backlog listener. */
#define CLOSED_PORT	9
#define FULL_PORT	23251

static const char *master_path = SYNCDEV_MASTER_PATH;
static const char *slave_path = SYNCDEV_SLAVE_PATH;
static size_t buf_size;

static int open_dev(const char *path)
{
	return dt_open(path, O_RDWR);
}

/* Arguments the driver must refuse with EINVAL. */
static void test_invalid_args(int m, int s)
{
	struct syncdev_connect c = { .reserved = 1 };

	CHECK(ERRNO_IS(ioctl(s, SYNCDEV_IOC_CONNECT, &c), EINVAL),
	      "CONNECT reserved != 0: EINVAL");
	c.reserved = 0;
	c.flags = 1;
	CHECK(ERRNO_IS(ioctl(s, SYNCDEV_IOC_CONNECT, &c), EINVAL),
	      "CONNECT flags != 0: EINVAL");
	CHECK(ERRNO_IS(dt_connect(s, "0.0.0.0", 0, 0), EINVAL),
	      "CONNECT to 0.0.0.0: EINVAL");
	CHECK(ERRNO_IS(dt_connect(s, "224.0.0.1", 0, 0), EINVAL),
	      "CONNECT to a multicast address: EINVAL");
	CHECK(ERRNO_IS(ioctl(s, SYNCDEV_LEGACY_CONNECT, "127.0.0.1:0"), EINVAL),
	      "legacy connect to port 0: EINVAL");
	CHECK(ERRNO_IS(ioctl(s, SYNCDEV_LEGACY_CONNECT, "localhost"), EINVAL),
	      "legacy connect to a host name: EINVAL");
	CHECK(ERRNO_IS(dt_xfer(m, SYNCDEV_IOC_SEND, 0, 1, 0, 1), EINVAL),
	      "SEND reserved != 0: EINVAL");
	CHECK(ERRNO_IS(dt_xfer(m, SYNCDEV_IOC_SEND, 0, 1, 1, 0), EINVAL),
	      "SEND flags != 0: EINVAL");
	CHECK(ERRNO_IS(dt_xfer(s, SYNCDEV_IOC_RECV, 0, 1, 1u << 7, 0), EINVAL),
	      "RECV unknown flag: EINVAL");
	CHECK(ERRNO_IS(dt_xfer(s, SYNCDEV_IOC_RECV, 0, buf_size + 1, 0, 0),
		       EINVAL), "RECV len beyond the buffer: EINVAL");
	CHECK(ERRNO_IS(dt_xfer(s, SYNCDEV_IOC_RECV, buf_size, 1, 0, 0),
		       EINVAL), "RECV offset at the buffer end: EINVAL");
	CHECK(ERRNO_IS(dt_xfer(m, SYNCDEV_IOC_SEND, 4096, UINT64_MAX, 0, 0),
		       EINVAL), "SEND offset + len overflowing: EINVAL");
}

/* Calls that need a connection, made without one. */
static void test_unconnected(int m, int s)
{
	char byte = 0;

	CHECK(ERRNO_IS(read(m, &byte, 1), ENOTCONN),
	      "read on an unconnected master: ENOTCONN");
	CHECK(ERRNO_IS(write(s, &byte, 1), ENOTCONN),
	      "write on an unconnected slave: ENOTCONN");
	CHECK(ERRNO_IS(write(m, &byte, 1), ENOTCONN),
	      "write on unconnected master: ENOTCONN");
	CHECK(ERRNO_IS(read(s, &byte, 1), ENOTCONN),
	      "read on unconnected slave: ENOTCONN");
	CHECK(ERRNO_IS(dt_xfer(m, SYNCDEV_IOC_SEND, 0, 1, 0, 0), ENOTCONN),
	      "SEND without a connection: ENOTCONN");
	CHECK(ERRNO_IS(dt_xfer(s, SYNCDEV_IOC_RECV, 0, 1, 0, 0), ENOTCONN),
	      "RECV without a connection: ENOTCONN");
	CHECK(ERRNO_IS(ioctl(m, SYNCDEV_LEGACY_XFER, 1), EINVAL),
	      "legacy send with nothing mapped: EINVAL");
	CHECK(ERRNO_IS(ioctl(s, SYNCDEV_LEGACY_XFER, 1), ENOTCONN),
	      "legacy receive without a connection: ENOTCONN");
	CHECK(ioctl(m, SYNCDEV_IOC_DISCONNECT) == 0 &&
	      ioctl(s, SYNCDEV_LEGACY_CLOSE, 0) == 0,
	      "DISCONNECT without a connection: 0 (idempotent)");
	CHECK(ERRNO_IS(lseek(m, 0, SEEK_SET), ESPIPE), "lseek: ESPIPE");
}

static void test_ioctl_errors(void)
{
	int m = open_dev(master_path), s = open_dev(slave_path);

	CHECK(ERRNO_IS(ioctl(m, _IO(SYNCDEV_IOC_MAGIC, 99)), ENOTTY),
	      "unknown ioctl on master: ENOTTY");
	CHECK(ERRNO_IS(ioctl(s, _IO('T', 0x7f), 0), ENOTTY),
	      "unknown terminal ioctl on slave: ENOTTY");
	CHECK(ERRNO_IS(ioctl(s, SYNCDEV_IOC_ACCEPT), ENOTTY),
	      "ACCEPT on slave: ENOTTY");
	CHECK(ERRNO_IS(dt_connect(m, "127.0.0.1", 0, 0), ENOTTY),
	      "CONNECT on master: ENOTTY");
	/* The connection carries bytes both ways: no ENOTTY for these. */
	CHECK(ERRNO_IS(dt_xfer(s, SYNCDEV_IOC_SEND, 0, 1, 0, 0), ENOTCONN),
	      "SEND on an unconnected slave: ENOTCONN");
	CHECK(ERRNO_IS(dt_xfer(m, SYNCDEV_IOC_RECV, 0, 1, 0, 0), ENOTCONN),
	      "RECV on an unconnected master: ENOTCONN");

	CHECK(ERRNO_IS(ioctl(s, SYNCDEV_IOC_CONNECT, (void *)8), EFAULT),
	      "CONNECT with a bad pointer: EFAULT");
	CHECK(ERRNO_IS(ioctl(m, SYNCDEV_IOC_SEND, (void *)8), EFAULT),
	      "SEND with a bad pointer: EFAULT");
	CHECK(ERRNO_IS(ioctl(s, SYNCDEV_IOC_RECV, (void *)8), EFAULT),
	      "RECV with a bad pointer: EFAULT");
	CHECK(ERRNO_IS(ioctl(m, SYNCDEV_IOC_INFO, (void *)8), EFAULT),
	      "INFO with a bad pointer: EFAULT");
	CHECK(ERRNO_IS(ioctl(m, SYNCDEV_IOC_PRINT_PAGE, (void *)8), EFAULT),
	      "PRINT_PAGE with a bad pointer: EFAULT");
	CHECK(ERRNO_IS(ioctl(s, SYNCDEV_LEGACY_CONNECT, (void *)8), EFAULT),
	      "legacy connect with a bad string pointer: EFAULT");

	test_invalid_args(m, s);
	test_unconnected(m, s);
	close(m);
	close(s);
}

static void test_mmap_errors(void)
{
	int m = open_dev(master_path);
	long page = sysconf(_SC_PAGESIZE);
	uint64_t none = 0;
	unsigned char *p;

	CHECK(mmap(NULL, buf_size + page, PROT_READ | PROT_WRITE, MAP_SHARED,
		   m, 0) == MAP_FAILED && errno == EINVAL,
	      "mmap longer than the buffer: EINVAL");
	CHECK(mmap(NULL, page, PROT_READ, MAP_SHARED, m, (off_t)buf_size) ==
	      MAP_FAILED && errno == EINVAL,
	      "mmap at offset buf_size: EINVAL");
	CHECK(mmap(NULL, 2 * page, PROT_READ, MAP_SHARED, m,
		   (off_t)buf_size - page) == MAP_FAILED && errno == EINVAL,
	      "mmap running past the buffer end: EINVAL");
	CHECK(mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE, m, 0) ==
	      MAP_FAILED && errno == EINVAL, "mmap MAP_PRIVATE: EINVAL");
	CHECK(ERRNO_IS(ioctl(m, SYNCDEV_IOC_PRINT_PAGE, &none), EINVAL),
	      "print page of a never-mapped buffer: EINVAL");

	p = mmap(NULL, buf_size, PROT_READ | PROT_WRITE, MAP_SHARED, m, 0);
	CHECK(p != MAP_FAILED, "mmap of the whole buffer");
	if (p == MAP_FAILED)
		return;
	CHECK(p[0] == 0 && p[buf_size - 1] == 0, "the new buffer is zeroed");
	p[buf_size - 1] = 0xa5;
	close(m);
	/* The mapping outlives the file. */
	CHECK(p[buf_size - 1] == 0xa5, "mapping stays valid after close()");
	munmap(p, buf_size);
}

/* Run fn in a child; its exit status, or -1 if it blocked for too long. */
static int guarded(int (*fn)(void), const char *what)
{
	pid_t pid;
	int st, i;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(fn());
	for (i = 0; i < WATCHDOG_S * 10; i++) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
		/* For the EINTR tests: keep signalling until it returns. */
		kill(pid, SIGUSR1);
		usleep(100000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	printf("# %s still blocked after %d s\n", what, WATCHDOG_S);
	return -1;
}

static int child_errno(int ret)
{
	if (ret == -1)
		return errno < 255 ? errno : 255;
	return 0;
}

static int refused_child(void)
{
	signal(SIGUSR1, SIG_IGN);
	return child_errno(dt_connect(open_dev(slave_path), "127.0.0.1",
				       CLOSED_PORT, 0));
}

/*
 * A userspace listener whose one-slot accept queue is already full drops
 * further SYNs without an answer: a connect that can only time out, and
 * nothing leaves the guest.
 */
static int timeout_child(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(FULL_PORT) };
	int one = 1, l, c;

	signal(SIGUSR1, SIG_IGN);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(l, (struct sockaddr *)&sa, sizeof(sa)) || listen(l, 0))
		return 254;
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (connect(c, (struct sockaddr *)&sa, sizeof(sa)))
		return 253;
	return child_errno(dt_connect(open_dev(slave_path), "127.0.0.1",
				       FULL_PORT, 1000));
}

static int accept_eintr_child(void)
{
	int m = open_dev(master_path);

	catch_usr1();
	return child_errno(ioctl(m, SYNCDEV_IOC_ACCEPT));
}

static void test_blocking_errors(void)
{
	CHECK(guarded(refused_child, "connect") == ECONNREFUSED,
	      "CONNECT with no master listening: ECONNREFUSED");
	CHECK(guarded(timeout_child, "connect") == ETIMEDOUT,
	      "CONNECT (timeout 1000 ms) to a peer that never answers: ETIMEDOUT");
	CHECK(guarded(accept_eintr_child, "accept") == EINTR,
	      "signal during a blocked ACCEPT: EINTR");
}

static int connect_loopback(void *fd)
{
	return dt_connect(*(int *)fd, "127.0.0.1", 0, 0);
}

static int recv_eintr_fd = -1;

static int recv_eintr_child(void)
{
	catch_usr1();
	return child_errno(dt_xfer(recv_eintr_fd, SYNCDEV_IOC_RECV, 0, 1, 0, 0));
}

static int read_eintr_child(void)
{
	char b;

	catch_usr1();
	return child_errno((int)read(recv_eintr_fd, &b, 1));
}

/* The slave has disconnected: sending fails with EPIPE or ECONNRESET. */
static void test_peer_gone(int m)
{
	char buf[4096];
	int i, sent_ok = 0;
	ssize_t n = 0;

	memset(buf, 'x', sizeof(buf));
	for (i = 0; i < 64 * 1024; i++) {
		n = write(m, buf, sizeof(buf));
		if (n < 0)
			break;
		sent_ok++;
	}
	CHECK(n < 0 && (errno == EPIPE || errno == ECONNRESET),
	      "write after the slave disconnected: EPIPE or ECONNRESET (%d writes first)",
	      sent_ok);
}

static void test_connected(void)
{
	struct syncdev_info info;
	char buf[4096];
	uint32_t lo = htonl(INADDR_LOOPBACK);
	int m, s;

	dt_pair(&m, &s);
	CHECK(ioctl(s, SYNCDEV_IOC_INFO, &info) == 0 && info.connected == 1 &&
	      info.peer_addr == lo && info.peer_port == SYNCDEV_DEFAULT_PORT &&
	      info.buf_size == buf_size, "INFO of a connected slave");
	CHECK(ioctl(m, SYNCDEV_IOC_INFO, &info) == 0 && info.connected == 1 &&
	      info.peer_addr == lo && info.local_port == SYNCDEV_DEFAULT_PORT,
	      "INFO of a connected master");
	CHECK(ERRNO_IS(ioctl(m, SYNCDEV_IOC_ACCEPT), EISCONN),
	      "ACCEPT while connected: EISCONN");
	CHECK(ERRNO_IS(connect_loopback(&s), EISCONN),
	      "CONNECT while connected: EISCONN");
	CHECK(ERRNO_IS(dt_xfer(s, SYNCDEV_IOC_RECV, 0, buf_size + 1, 0, 0),
		       EINVAL), "connected RECV len beyond the buffer: EINVAL");
	CHECK(ERRNO_IS(dt_xfer(m, SYNCDEV_IOC_SEND, buf_size, 1, 0, 0),
		       EINVAL), "connected SEND beyond the buffer: EINVAL");

	/* Nothing was sent: RECV and read() block until a signal. */
	recv_eintr_fd = s;
	CHECK(guarded(recv_eintr_child, "recv") == EINTR,
	      "signal during a blocked RECV: EINTR");
	CHECK(guarded(read_eintr_child, "read") == EINTR,
	      "signal during a blocked read(): EINTR");

	CHECK(write(m, "xyz", 3) == 3 && read_full(s, buf, 3) == 3 &&
	      !memcmp(buf, "xyz", 3), "3 bytes through the pair");
	CHECK(ioctl(s, SYNCDEV_IOC_DISCONNECT) == 0 &&
	      ERRNO_IS(read(s, buf, 1), ENOTCONN),
	      "read after DISCONNECT: ENOTCONN");

	test_peer_gone(m);
	close(m);
	close(s);

	/* And the other way round: the master closes, the slave sees EOF. */
	dt_pair(&m, &s);
	CHECK(write(m, "ab", 2) == 2, "write 2 bytes");
	close(m);
	CHECK(read_full(s, buf, sizeof(buf)) == 2 && read(s, buf, 1) == 0,
	      "slave reads the 2 bytes, then end of stream (0)");
	CHECK(dt_xfer(s, SYNCDEV_IOC_RECV, 0, 1, 0, 0) == 0,
	      "RECV at end of stream: 0");
	close(s);
}

int main(int argc, char **argv)
{
	struct syncdev_info info;
	int fd;

	set_progname(argv[0]);
	if (argc > 1) {
		printf("usage: devcheck\n\nCheck every error of the syncdev devices (module loaded,\n"
		       "devices unused).  Prints PASS/FAIL lines; exit 1 on a failure.\n");
		return strcmp(argv[1], "--help") ? EXIT_USAGE : EXIT_OK;
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGUSR1, SIG_IGN);
	fd = open_dev(master_path);
	if (ioctl(fd, SYNCDEV_IOC_INFO, &info))
		die_errno("SYNCDEV_IOC_INFO");
	buf_size = (size_t)info.buf_size;
	close(fd);
	printf("# buffer size %zu bytes\n", buf_size);

	test_ioctl_errors();
	test_mmap_errors();
	test_blocking_errors();
	test_connected();
	return check_done();
}
