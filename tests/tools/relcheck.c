// SPDX-License-Identifier: GPL-2.0
/*
 * relcheck: the reliability guarantees of the device (docs/protocol.md),
 * one "PASS name" / "FAIL name: why" line each.  Runs in the test guest
 * with the module loaded and no other user of the devices.
 *
 *	relcheck twoway|timeout|signals|connect|peer|mmap|threads
 *	relcheck cap N		N buffers fit under max_buffer_mb, not N + 1
 *	relcheck memcg		a buffer is charged to the caller's cgroup
 *	relcheck dumps N	N page dumps in a row (the script counts lines)
 *	relcheck flood N	N connect/close from a stranger (the same)
 *
 * Calls that block run in a child process with a watchdog, so a call that
 * never returns is a failure and not a hung test.  Nothing measures time:
 * pauses only give a blocked call the chance to block.
 */
#include "../unit/check.h"
#include "devtest.h"
#include "testpat.h"
#include "util.h"

#include <netinet/in.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>

#define WATCHDOG_S	60
#define FULL_PORT	23252	/* a userspace listener with a full queue */
#define PARAMS		"/sys/module/syncdev/parameters/"

/*
 * What a test works on, handed to each helper and to each child it
 * forks (spawn): the child gets its own copy, nothing is global.
 */
struct rig {
	size_t bufsz;		/* the module's buf_size */
	int m, s;		/* the connected pair, -1 when none */
	unsigned char *map;	/* a mapping of one side's buffer, or NULL */
	unsigned int rounds;	/* buffers a sending child sends */
	uint32_t timeout;	/* a connecting child's timeout */
	int catch_usr1;		/* the child handles SIGUSR1 (EINTR) */
};

static pid_t spawn(struct rig *rig, int (*fn)(struct rig *))
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (rig->catch_usr1)
			catch_usr1();
		_exit(fn(rig));
	}
	return pid;
}

static int alive(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, pid, &si, WEXITED | WNOHANG | WNOWAIT))
		return 0;
	return si.si_pid == 0;
}

/* Exit status of @pid, 128 + signal if killed; -1 (and killed) if it runs on. */
static int reap(pid_t pid, int secs)
{
	int st, i;

	for (i = 0; i < secs * 10 && waitpid(pid, &st, WNOHANG) == 0; i++)
		usleep(100000);
	if (i == secs * 10) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		printf("# child %d still running after %d s\n", (int)pid, secs);
		return -1;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Wait until @pid is in state T (stopped); 0 if it never gets there. */
static int is_stopped(pid_t pid)
{
	char path[64], buf[256], *p;
	int i, fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (i = 0; i < 200; i++) {
		fd = open(path, O_RDONLY);
		n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
		if (fd >= 0)
			close(fd);
		if (n <= 0)
			return 0;
		buf[n] = 0;
		p = strrchr(buf, ')');
		if (p && p[2] == 'T')
			return 1;
		usleep(10000);
	}
	return 0;
}

/* Stop and continue @pid; returns whether it really stopped. */
static int stop_cont(pid_t pid)
{
	int ok;

	kill(pid, SIGSTOP);
	ok = is_stopped(pid);
	usleep(20000);
	kill(pid, SIGCONT);
	usleep(30000);
	return ok;
}

/*
 * Stop/continue (or SIGUSR1 when rig->catch_usr1) @times times; how many
 * stopped.
 */
static int pester(struct rig *rig, pid_t pid, int times)
{
	int i, stopped = 0;

	for (i = 0; i < times && alive(pid); i++) {
		if (rig->catch_usr1) {
			kill(pid, SIGUSR1);
			usleep(50000);
			stopped++;
		} else {
			stopped += stop_cont(pid);
		}
	}
	return stopped;
}

static int child_errno(int ret)
{
	if (ret == -1)
		return errno < 127 ? errno : 127;
	return 0;
}

static void unpair(struct rig *rig)
{
	if (rig->map)
		munmap(rig->map, rig->bufsz);
	rig->map = NULL;
	close(rig->m);
	close(rig->s);
	rig->m = rig->s = -1;
}

static int pair(struct rig *rig)
{
	if (dt_pair(&rig->m, &rig->s)) {
		CHECK(0, "connect a pair over 127.0.0.1");
		return -1;
	}
	return 0;
}

static void *map_dev(int fd, size_t len, int prot)
{
	void *p = mmap(NULL, len, prot, MAP_SHARED, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

static long long read_param(const char *name)
{
	char path[128], buf[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), PARAMS "%s", name);
	f = fopen(path, "r");
	if (!f || !fgets(buf, sizeof(buf), f))
		die_errno("read %s", path);
	fclose(f);
	return atoll(buf);
}

static int write_param(const char *name, const char *value)
{
	char path[128];
	int fd, ok;

	snprintf(path, sizeof(path), PARAMS "%s", name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ok = write(fd, value, strlen(value)) == (ssize_t)strlen(value);
	close(fd);
	return ok ? 0 : -1;
}

/* Both directions on one connection, with read/write and SEND/RECV. */
static void test_twoway(struct rig *rig)
{
	struct syncdev_info mi, si;
	unsigned char *ms, *mm;
	char b[4];

	if (pair(rig))
		return;
	CHECK(write(rig->s, "ack", 3) == 3 && read_full(rig->m, b, 3) == 3 &&
	      !memcmp(b, "ack", 3), "slave write() -> master read()");
	ms = map_dev(rig->s, 8192, PROT_READ | PROT_WRITE);
	mm = map_dev(rig->m, 8192, PROT_READ | PROT_WRITE);
	if (!ms || !mm)
		die_errno("mmap");
	testpat_fill(ms, 8192, 0, 7);
	CHECK(dt_xfer(rig->s, SYNCDEV_IOC_SEND, 0, 8192, 0, 0) == 0 &&
	      dt_xfer(rig->m, SYNCDEV_IOC_RECV, 0, 8192, SYNCDEV_RECV_WAITALL,
		      0) == 8192 && testpat_first_bad(mm, 8192, 0, 7) == 8192,
	      "slave SEND -> master RECV: 8192 bytes identical");
	CHECK(write(rig->m, "x", 1) == 1 && read(rig->s, b, 1) == 1 && b[0] == 'x',
	      "master -> slave on the same connection still works");
	CHECK(ioctl(rig->m, SYNCDEV_IOC_INFO, &mi) == 0 &&
	      ioctl(rig->s, SYNCDEV_IOC_INFO, &si) == 0 &&
	      mi.bytes_received == 3 + 8192 && si.bytes_sent == 3 + 8192 &&
	      mi.bytes_sent == 1 && si.bytes_received == 1,
	      "INFO counts both directions");
	munmap(ms, 8192);
	munmap(mm, 8192);
	unpair(rig);
}

static int set_timeout(int fd, uint32_t ms)
{
	struct syncdev_timeout t = { ms, 0 };

	return ioctl(fd, SYNCDEV_IOC_SET_TIMEOUT, &t);
}

/* Connections with a timer of type @tr (2: keepalive) in /proc/net/tcp. */
static int count_timers(int tr)
{
	char line[256];
	unsigned int lport, rport, st, timer;
	int n = 0;
	FILE *f = fopen("/proc/net/tcp", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " %*d: %*x:%x %*x:%x %x %*x:%*x %x:", &lport,
			   &rport, &st, &timer) == 4 && st == 1 &&
		    (lport == SYNCDEV_DEFAULT_PORT ||
		     rport == SYNCDEV_DEFAULT_PORT) && (int)timer == tr)
			n++;
	fclose(f);
	return n;
}

static void test_keepalive(struct rig *rig)
{
	char old[16];

	if (pair(rig))
		return;
	CHECK(count_timers(2) == 2,
	      "keepalive: both ends of a connection run the keepalive timer");
	unpair(rig);
	snprintf(old, sizeof(old), "%lld", read_param("keepalive_idle_s"));
	CHECK(write_param("keepalive_idle_s", "0") == 0,
	      "keepalive_idle_s=0 is accepted");
	if (pair(rig))
		return;
	CHECK(count_timers(2) == 0, "keepalive_idle_s=0: no keepalive timer");
	unpair(rig);
	write_param("keepalive_idle_s", old);
	CHECK(write_param("keepalive_idle_s", "40000") &&
	      write_param("keepalive_intvl_s", "0") &&
	      write_param("keepalive_cnt", "128") &&
	      read_param("keepalive_idle_s") == atoi(old),
	      "keepalive parameters out of TCP's range are refused");
}

/* A SEND to a slave that never reads: ETIMEDOUT once nothing moves. */
static void test_send_timeout(struct rig *rig)
{
	int i, ret = 0;

	if (pair(rig))
		return;
	rig->map = map_dev(rig->m, rig->bufsz, PROT_READ | PROT_WRITE);
	CHECK(rig->map && set_timeout(rig->m, 500) == 0,
	      "SET_TIMEOUT 500 on a master");
	for (i = 0; i < 8 && !ret; i++)
		ret = dt_xfer(rig->m, SYNCDEV_IOC_SEND, 0, rig->bufsz, 0, 0);
	CHECK(ret == -1 && errno == ETIMEDOUT,
	      "SEND to a slave that never reads: ETIMEDOUT");
	unpair(rig);
}

static void test_timeout(struct rig *rig)
{
	struct syncdev_timeout bad = { 500, 1 };
	char b[8], old[16];

	if (pair(rig))
		return;
	CHECK(ERRNO_IS(ioctl(rig->s, SYNCDEV_IOC_SET_TIMEOUT, &bad), EINVAL) &&
	      ERRNO_IS(ioctl(rig->s, SYNCDEV_IOC_SET_TIMEOUT, (void *)8), EFAULT),
	      "SET_TIMEOUT: reserved != 0 EINVAL, bad pointer EFAULT");
	CHECK(set_timeout(rig->s, 500) == 0 && ERRNO_IS(read(rig->s, b, 1), ETIMEDOUT),
	      "SET_TIMEOUT 500, nothing arrives: read() fails with ETIMEDOUT");
	CHECK(ERRNO_IS(read(rig->s, b, 1), ETIMEDOUT) &&
	      ERRNO_IS(write(rig->s, "x", 1), ETIMEDOUT) &&
	      ERRNO_IS(dt_xfer(rig->s, SYNCDEV_IOC_RECV, 0, 1, 0, 0), ETIMEDOUT),
	      "after the timeout every transfer on it fails with ETIMEDOUT");
	CHECK(read(rig->m, b, 1) == 0,
	      "the connection was shut down: the master reads end of stream");
	CHECK(ioctl(rig->s, SYNCDEV_IOC_DISCONNECT) == 0 &&
	      ERRNO_IS(read(rig->s, b, 1), ENOTCONN), "DISCONNECT after it");
	unpair(rig);
	test_send_timeout(rig);

	snprintf(old, sizeof(old), "%lld", read_param("progress_timeout_ms"));
	write_param("progress_timeout_ms", "500");
	if (pair(rig))
		return;
	CHECK(ERRNO_IS(read(rig->s, b, 1), ETIMEDOUT),
	      "progress_timeout_ms=500 without SET_TIMEOUT: ETIMEDOUT");
	unpair(rig);
	write_param("progress_timeout_ms", old);
	test_keepalive(rig);
}

/* Child: SEND rig->rounds buffers of pattern 1; EINTR is retried. */
static int send_rounds_child(struct rig *rig)
{
	unsigned int r, eintr = 0;

	for (r = 0; r < rig->rounds; r++) {
		testpat_fill(rig->map, rig->bufsz, (uint64_t)r * rig->bufsz, 1);
		while (dt_xfer(rig->m, SYNCDEV_IOC_SEND, 0, rig->bufsz, 0, 0)) {
			if (errno != EINTR)
				return child_errno(-1);
			eintr++;
		}
	}
	printf("# sender: %u sends interrupted and resumed\n", eintr);
	return rig->catch_usr1 && !eintr ? 126 : 0;
}

/* Receive rig->rounds buffers on rig->s; 0 if every byte is pattern 1. */
static int recv_rounds(struct rig *rig, const unsigned char *map)
{
	unsigned int r;
	long n;

	for (r = 0; r < rig->rounds; r++) {
		n = dt_xfer(rig->s, SYNCDEV_IOC_RECV, 0, rig->bufsz, SYNCDEV_RECV_WAITALL,
			    0);
		if (n != (long)rig->bufsz) {
			printf("# buffer %u: RECV returned %ld (%s)\n", r, n,
			       n < 0 ? strerror(errno) : "short");
			return -1;
		}
		if (testpat_first_bad(map, rig->bufsz, (uint64_t)r * rig->bufsz, 1) != rig->bufsz) {
			printf("# buffer %u differs at byte %zu\n", r,
			       testpat_first_bad(map, rig->bufsz, (uint64_t)r * rig->bufsz, 1));
			return -1;
		}
	}
	return 0;
}

/*
 * A master's SEND blocked by a slave that does not read yet is stopped
 * and continued (or, with rig->catch_usr1, interrupted by a handler and
 * retried) 20 times; then every byte arrives, in order, once.
 */
static void test_send_signals(struct rig *rig, const char *how)
{
	unsigned char *smap;
	int st, hits, bad;
	pid_t pid;

	if (pair(rig))
		return;
	rig->map = map_dev(rig->m, rig->bufsz, PROT_READ | PROT_WRITE);
	smap = map_dev(rig->s, rig->bufsz, PROT_READ);
	if (!rig->map || !smap)
		die_errno("mmap");
	/* More than the socket buffers hold: the sender must wait. */
	rig->rounds = (24u << 20) / rig->bufsz + 2;
	pid = spawn(rig, send_rounds_child);
	usleep(300000);
	hits = pester(rig, pid, 20);
	bad = recv_rounds(rig, smap);
	st = reap(pid, WATCHDOG_S);
	CHECK(st == 0 && bad == 0 && hits > 0,
	      "mmap SEND %s %d times: sender exits %d, %u x %zu bytes identical",
	      how, hits, st, rig->rounds, rig->bufsz);
	munmap(smap, rig->bufsz);
	unpair(rig);
}

/* Child: one SEND cut by EINTR, then a different one: EPIPE. */
static int abandon_child(struct rig *rig)
{
	testpat_fill(rig->map, rig->bufsz, 0, 1);
	if (dt_xfer(rig->m, SYNCDEV_IOC_SEND, 0, rig->bufsz, 0, 0) == 0)
		return 125;
	if (errno != EINTR)
		return child_errno(-1);
	if (dt_xfer(rig->m, SYNCDEV_IOC_SEND, 0, 1, 0, 0) == 0)
		return 124;
	return errno == EPIPE ? 0 : child_errno(-1);
}

static void test_abandon(struct rig *rig)
{
	unsigned char *buf = xmalloc(rig->bufsz);
	size_t got = 0;
	ssize_t n;
	int st;
	pid_t pid;

	if (pair(rig))
		return;
	rig->map = map_dev(rig->m, rig->bufsz, PROT_READ | PROT_WRITE);
	rig->catch_usr1 = 1;
	pid = spawn(rig, abandon_child);
	rig->catch_usr1 = 0;
	usleep(300000);
	while (alive(pid)) {
		kill(pid, SIGUSR1);
		usleep(50000);
	}
	st = reap(pid, WATCHDOG_S);
	CHECK(st == 0, "a different SEND after an interrupted one: EPIPE (child %d)",
	      st);
	while (got < rig->bufsz && (n = read(rig->s, buf + got, rig->bufsz - got)) > 0)
		got += (size_t)n;
	CHECK(got < rig->bufsz && testpat_first_bad(buf, got, 0, 1) == got &&
	      (read(rig->s, buf, 1) == 0 || errno == ECONNRESET),
	      "the slave gets a prefix (%zu bytes) and then the end, never shifted bytes",
	      got);
	free(buf);
	unpair(rig);
}

/* Child: RECV WAITALL of a whole buffer of pattern 2 on rig->s. */
static int recv_child(struct rig *rig)
{
	long n;

	while ((n = dt_xfer(rig->s, SYNCDEV_IOC_RECV, 0, rig->bufsz,
			    SYNCDEV_RECV_WAITALL, 0)) < 0 && errno == EINTR)
		;
	if (n != (long)rig->bufsz)
		return n < 0 ? child_errno(-1) : 123;
	return testpat_first_bad(rig->map, rig->bufsz, 0, 2) == rig->bufsz ? 0 : 122;
}

/* A slave's RECV WAITALL, fed in 16 pieces, stopped between them. */
static void test_recv_signals(struct rig *rig, const char *how)
{
	unsigned char *src = xmalloc(rig->bufsz);
	size_t piece = rig->bufsz / 16, off;
	int st, hits = 0;
	pid_t pid;

	if (pair(rig))
		return;
	rig->map = map_dev(rig->s, rig->bufsz, PROT_READ);
	testpat_fill(src, rig->bufsz, 0, 2);
	pid = spawn(rig, recv_child);
	for (off = 0; off < rig->bufsz; off += piece) {
		usleep(20000);
		if (write_full(rig->m, src + off, piece) < 0)
			break;
		hits += pester(rig, pid, 1);
	}
	st = reap(pid, WATCHDOG_S);
	CHECK(st == 0 && hits > 0,
	      "RECV WAITALL %s %d times: all %zu bytes, identical (child %d)",
	      how, hits, rig->bufsz, st);
	free(src);
	unpair(rig);
}

static void test_signals(struct rig *rig)
{
	test_send_signals(rig, "stopped and continued");
	rig->catch_usr1 = 1;
	test_send_signals(rig, "interrupted by a handler (EINTR) and retried");
	test_recv_signals(rig, "interrupted by a handler and retried");
	rig->catch_usr1 = 0;
	test_recv_signals(rig, "stopped and continued");
	test_abandon(rig);
}

/* A listener at FULL_PORT whose one-slot queue is full: SYNs are dropped. */
static int full_listener(int *c)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(FULL_PORT) };
	int one = 1, l;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(l, (struct sockaddr *)&sa, sizeof(sa)) || listen(l, 0))
		die_errno("listen on port %d", FULL_PORT);
	*c = socket(AF_INET, SOCK_STREAM, 0);
	if (connect(*c, (struct sockaddr *)&sa, sizeof(sa)))
		die_errno("fill the queue of port %d", FULL_PORT);
	return l;
}

/* Child: CONNECT to FULL_PORT within rig->timeout; EINTR is retried. */
static int connect_child(struct rig *rig)
{
	int s = dt_open(SYNCDEV_SLAVE_PATH, O_RDWR), eintr = 0, ret;

	while ((ret = dt_connect(s, "127.0.0.1", FULL_PORT, rig->timeout)) &&
	       errno == EINTR)
		eintr++;
	if (!ret && rig->catch_usr1 && !eintr)
		return 121;
	return child_errno(ret);
}

/* Pester a connecting child, then make room in the queue: it connects. */
static void test_connect_served(struct rig *rig, const char *how)
{
	int c, l = full_listener(&c), hits, st;
	pid_t pid;

	rig->timeout = 30000;
	pid = spawn(rig, connect_child);
	usleep(200000);
	hits = pester(rig, pid, 5);
	close(accept(l, NULL, NULL));
	close(c);
	st = reap(pid, WATCHDOG_S);
	CHECK(st == 0 && hits > 0,
	      "CONNECT (timeout 30 s) %s %d times, then served: 0 (got %s)",
	      how, hits, st ? strerror(st) : "0");
	close(l);
}

static void test_connect(struct rig *rig)
{
	int c, l, st, i;
	pid_t pid;

	test_connect_served(rig, "stopped and continued");
	rig->catch_usr1 = 1;
	test_connect_served(rig, "interrupted by a handler and retried");
	rig->catch_usr1 = 0;

	/* Stopped over and over, it still ends at its own deadline. */
	l = full_listener(&c);
	rig->timeout = 1500;
	pid = spawn(rig, connect_child);
	for (i = 0; i < 400 && alive(pid); i++)
		stop_cont(pid);
	st = reap(pid, WATCHDOG_S);
	CHECK(st == ETIMEDOUT,
	      "CONNECT (timeout 1.5 s) stopped and continued without end: ETIMEDOUT (got %s)",
	      st < 0 ? "none" : strerror(st));
	close(c);
	close(l);
}

static int set_peer(int fd, const char *ip)
{
	struct syncdev_peer p = { 0, 0 };

	inet_pton(AF_INET, ip, &p.addr);
	return ioctl(fd, SYNCDEV_IOC_SET_PEER, &p);
}

/* A plain TCP client from @src to the master's port; its first read. */
static int stranger_reads(const char *src)
{
	struct sockaddr_in me = { .sin_family = AF_INET };
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(SYNCDEV_DEFAULT_PORT) };
	struct timeval tv = { 20, 0 };
	int u = socket(AF_INET, SOCK_STREAM, 0), i, ret;
	char b;

	inet_pton(AF_INET, src, &me.sin_addr);
	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	setsockopt(u, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (bind(u, (struct sockaddr *)&me, sizeof(me)))
		die_errno("bind to %s", src);
	for (i = 0; i < 500; i++) {
		ret = connect(u, (struct sockaddr *)&to, sizeof(to));
		if (!ret || errno != ECONNREFUSED)
			break;
		usleep(20000);
	}
	ret = ret ? -1 : (int)read(u, &b, 1);
	if (ret < 0)
		ret = -errno;
	close(u);
	return ret;
}

/* A master that allows only 127.0.0.1: a stranger is reset, then it serves. */
static void test_peer_master(struct rig *rig)
{
	struct syncdev_info info;
	pthread_t t;
	int r;

	rig->m = dt_open(SYNCDEV_MASTER_PATH, O_RDWR);
	rig->s = dt_open(SYNCDEV_SLAVE_PATH, O_RDWR);
	CHECK(set_peer(rig->m, "127.0.0.1") == 0, "SET_PEER 127.0.0.1 on a master");
	pthread_create(&t, NULL, dt_accept_thread, &rig->m);
	r = stranger_reads("127.0.0.5");
	CHECK(r == -ECONNRESET,
	      "a connection from 127.0.0.5 is reset (read: %s)",
	      r < 0 ? strerror(-r) : "data or end of stream");
	r = dt_connect(rig->s, "127.0.0.1", 0, 0);
	CHECK(r == 0, "the master still waits, and the allowed peer connects");
	if (r)
		dt_poke_listener();
	pthread_join(t, NULL);
	CHECK(ioctl(rig->m, SYNCDEV_IOC_INFO, &info) == 0 && info.connected &&
	      info.peer_addr == htonl(INADDR_LOOPBACK),
	      "the master is connected to 127.0.0.1");
	unpair(rig);
}

static void test_peer(struct rig *rig)
{
	struct syncdev_peer bad = { 0, 1 };
	int s = dt_open(SYNCDEV_SLAVE_PATH, O_RDWR);

	CHECK(ERRNO_IS(ioctl(s, SYNCDEV_IOC_SET_PEER, &bad), EINVAL) &&
	      ERRNO_IS(ioctl(s, SYNCDEV_IOC_SET_PEER, (void *)8), EFAULT),
	      "SET_PEER: reserved != 0 EINVAL, bad pointer EFAULT");
	CHECK(set_peer(s, "127.0.0.9") == 0 &&
	      ERRNO_IS(dt_connect(s, "127.0.0.1", 0, 0), EACCES) &&
	      ERRNO_IS(ioctl(s, SYNCDEV_LEGACY_CONNECT, "127.0.0.1"), EACCES),
	      "a slave with SET_PEER 127.0.0.9 connects elsewhere: EACCES");
	close(s);
	s = dt_open(SYNCDEV_SLAVE_PATH, O_RDWR);
	CHECK(write_param("allowed_peer", "127.0.0.9") == 0 &&
	      ERRNO_IS(dt_connect(s, "127.0.0.1", 0, 0), EACCES),
	      "module allowed_peer=127.0.0.9: a slave's CONNECT to 127.0.0.1 is EACCES");
	CHECK(write_param("allowed_peer", "bogus") &&
	      !write_param("allowed_peer", "\n") &&
	      ERRNO_IS(dt_connect(s, "127.0.0.1", 1, 100), ECONNREFUSED),
	      "allowed_peer refuses a malformed address; empty is anyone");
	close(s);
	test_peer_master(rig);
}

/* Index of the first byte that is not 0, or @len. */
static size_t first_nonzero(const unsigned char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len && !p[i]; i++)
		;
	return i;
}

/*
 * An O_RDONLY file cannot connect (EBADF, tests/tools/rulecheck.c), but
 * its buffer can be mapped read-only: zeroed, as every new buffer.
 */
static void test_mmap_rdonly(struct rig *rig)
{
	size_t len = 8192;
	unsigned char *p;

	rig->s = dt_open(SYNCDEV_SLAVE_PATH, O_RDONLY);
	p = map_dev(rig->s, len, PROT_READ);
	CHECK(p && first_nonzero(p, len) == len,
	      "mmap(PROT_READ, MAP_SHARED) of an O_RDONLY fd shows the zeroed buffer");
	CHECK(!map_dev(rig->s, 4096, PROT_READ | PROT_WRITE) && errno == EACCES,
	      "a writable shared mapping of an O_RDONLY fd: EACCES");
	CHECK(mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, rig->s, 0) == MAP_FAILED &&
	      errno == EINVAL, "MAP_PRIVATE of an O_RDONLY fd: EINVAL");
	if (p) {
		CHECK(mprotect(p, 4096, PROT_READ | PROT_WRITE) == -1,
		      "mprotect cannot make it writable");
		CHECK(madvise(p, len, MADV_DONTNEED) == 0 &&
		      first_nonzero(p, len) == len,
		      "after MADV_DONTNEED the read-only mapping shows the buffer again");
		munmap(p, len);
	}
	close(rig->s);
	rig->s = -1;
}

static void test_mmap(struct rig *rig)
{
	int m = dt_open(SYNCDEV_MASTER_PATH, O_RDWR);
	unsigned char *p = map_dev(m, 8192, PROT_READ | PROT_WRITE), *q;
	uint64_t addr;

	if (!p)
		die_errno("mmap");
	testpat_fill(p, 8192, 0, 4);
	CHECK(madvise(p, 8192, MADV_DONTNEED) == 0 &&
	      testpat_first_bad(p, 8192, 0, 4) == 8192,
	      "MADV_DONTNEED, then the mapping still shows the buffer");
	testpat_fill(p, 8192, 0, 5);
	q = map_dev(m, 8192, PROT_READ);
	CHECK(q && testpat_first_bad(q, 8192, 0, 5) == 8192,
	      "writes after MADV_DONTNEED reach the buffer (a second mapping sees them)");
	addr = (uintptr_t)p;
	CHECK(ioctl(m, SYNCDEV_IOC_PRINT_PAGE, &addr) == 0,
	      "PRINT_PAGE of a page mapped again after MADV_DONTNEED");
	CHECK(mremap(p, 8192, rig->bufsz + 8192, MREMAP_MAYMOVE) == MAP_FAILED,
	      "mremap cannot grow a mapping past the buffer");
	munmap(p, 8192);
	if (q)
		munmap(q, 8192);
	close(m);
	test_mmap_rdonly(rig);
}

/* @n buffers fit under max_buffer_mb; the next is ENOSPC. */
static void test_cap(struct rig *rig, int n)
{
	int *fds = xcalloc((size_t)n + 1, sizeof(int)), i, ok = 0, extra;

	for (i = 0; i < n; i++) {
		fds[i] = dt_open(SYNCDEV_SLAVE_PATH, O_RDWR);
		ok += dt_xfer(fds[i], SYNCDEV_IOC_RECV, 0, 0, 0, 0) == 0;
	}
	CHECK(ok == n, "%d sessions get a buffer of %zu bytes (%d did)", n,
	      rig->bufsz, ok);
	extra = dt_open(SYNCDEV_SLAVE_PATH, O_RDWR);
	CHECK(ERRNO_IS(dt_xfer(extra, SYNCDEV_IOC_RECV, 0, 0, 0, 0), ENOSPC),
	      "session %d: ENOSPC (max_buffer_mb reached)", n + 1);
	CHECK(!map_dev(extra, 4096, PROT_READ) && errno == ENOSPC,
	      "its mmap: ENOSPC");
	close(fds[0]);
	CHECK(dt_xfer(extra, SYNCDEV_IOC_RECV, 0, 0, 0, 0) == 0,
	      "one session closed: the next gets its buffer");
	for (i = 1; i < n; i++)
		close(fds[i]);
	close(extra);
	free(fds);
}

/* memory.current of this process's cgroup (v2), or -1. */
static long long cgroup_current(void)
{
	char line[512], path[600];
	long long v = -1;
	FILE *f = fopen("/proc/self/cgroup", "r");

	if (!f || !fgets(line, sizeof(line), f) || strncmp(line, "0::", 3))
		return -1;
	fclose(f);
	line[strcspn(line, "\n")] = 0;
	snprintf(path, sizeof(path), "/sys/fs/cgroup%s/memory.current",
		 line + 3);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%lld", &v) != 1)
		v = -1;
	if (f)
		fclose(f);
	return v;
}

static void test_memcg(struct rig *rig)
{
	long long c0, c1, c2;
	int fd;

	c0 = cgroup_current();
	fd = dt_open(SYNCDEV_SLAVE_PATH, O_RDWR);
	CHECK(dt_xfer(fd, SYNCDEV_IOC_RECV, 0, 0, 0, 0) == 0,
	      "a session allocates its buffer");
	c1 = cgroup_current();
	close(fd);
	c2 = cgroup_current();
	printf("# memory.current: %lld, with the buffer %lld, after close %lld\n",
	       c0, c1, c2);
	CHECK(c0 >= 0 && c1 - c0 >= (long long)rig->bufsz * 3 / 4,
	      "the buffer is charged to the caller's memory cgroup");
	CHECK(c1 - c2 >= (long long)rig->bufsz * 3 / 4,
	      "and uncharged when the session ends");
}

static void test_dumps(int n)
{
	int m = dt_open(SYNCDEV_MASTER_PATH, O_RDWR), i, ok = 0;
	unsigned char *p = map_dev(m, 4096, PROT_READ | PROT_WRITE);
	uint64_t t0 = now_ns();

	if (!p)
		die_errno("mmap");
	p[0] = 1;
	for (i = 0; i < n; i++)
		ok += ioctl(m, SYNCDEV_LEGACY_PRINT, (unsigned long)p) == 0;
	printf("# elapsed_ms %llu\n",
	       (unsigned long long)((now_ns() - t0) / 1000000));
	CHECK(ok == n, "%d page dumps in a row all return 0 (%d did)", n, ok);
	munmap(p, 4096);
	close(m);
}

/* A thread's blocking read and its result. */
struct blocked {
	int fd;
	int ret, err;
};

/* A blocking read of the slave, while nothing comes. */
static void *blocked_read(void *arg)
{
	struct blocked *b = arg;
	char c;

	b->ret = (int)read(b->fd, &c, 1);
	b->err = errno;
	return NULL;
}

/* The thread blocked in blocked_read() ends within 10 s; its result. */
static int join_blocked(pthread_t t, const struct blocked *b)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 10;
	if (pthread_timedjoin_np(t, NULL, &until))
		return -2;
	return b->ret;
}

/*
 * One thread blocked in read(): an O_NONBLOCK read from another thread
 * is EAGAIN at once (not a wait for the lock), and DISCONNECT from
 * another thread ends the blocked read (end of stream).  Exit code: the
 * first step that went wrong.
 */
static int threads_child(struct rig *rig)
{
	struct blocked b = { .fd = rig->s };
	int fl = fcntl(rig->s, F_GETFL);
	pthread_t t;
	char c;

	pthread_create(&t, NULL, blocked_read, &b);
	usleep(300000);
	fcntl(rig->s, F_SETFL, fl | O_NONBLOCK);
	if (!ERRNO_IS(read(rig->s, &c, 1), EAGAIN))
		return 1;
	if (!ERRNO_IS(write(rig->s, &c, 1), EAGAIN))
		return 2;
	fcntl(rig->s, F_SETFL, fl);
	if (ioctl(rig->s, SYNCDEV_IOC_DISCONNECT))
		return 3;
	if (join_blocked(t, &b) != 0)
		return 4;
	/* The master reads the end of the stream; the file connects again. */
	if (read(rig->m, &c, 1) != 0 || !ERRNO_IS(read(rig->s, &c, 1), ENOTCONN))
		return 5;
	return 0;
}

static void test_threads(struct rig *rig)
{
	static const char *const step[] = {
		"none", "O_NONBLOCK read: EAGAIN",
		"O_NONBLOCK write: EAGAIN", "DISCONNECT returns 0",
		"the blocked read returns 0 within 10 s",
		"master reads end of stream, slave read ENOTCONN",
	};
	int rc;

	if (pair(rig))
		return;
	rc = reap(spawn(rig, threads_child), WATCHDOG_S);
	CHECK(rc == 0, "another thread blocked in read(): O_NONBLOCK read and write are EAGAIN, DISCONNECT ends the blocked read (step failed: %s)",
	      rc >= 0 && rc < 6 ? step[rc] : "killed or hung");
	unpair(rig);
}

/* Accept and drop connections for ever (until the process exits). */
static void *accept_drop(void *arg)
{
	int fd = *(int *)arg;

	for (;;) {
		if (ioctl(fd, SYNCDEV_IOC_ACCEPT) && errno != EINTR)
			break;
		ioctl(fd, SYNCDEV_IOC_DISCONNECT);
	}
	return NULL;
}

/* A connection to the master's port, closed at once (with a reset if @rst). */
static int connect_close(int rst)
{
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(SYNCDEV_DEFAULT_PORT) };
	struct linger lg = { 1, 0 };
	int u = socket(AF_INET, SOCK_STREAM, 0), ret;

	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ret = connect(u, (struct sockaddr *)&to, sizeof(to));
	if (rst)
		setsockopt(u, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	close(u);
	return ret;
}

/*
 * @n connections from a stranger, each closed at once, while a master
 * session accepts and drops them: the script counts the log lines.
 */
static void test_flood(int n)
{
	int m = dt_open(SYNCDEV_MASTER_PATH, O_RDWR), i, made = 0;
	pthread_t t;

	pthread_create(&t, NULL, accept_drop, &m);
	for (i = 0; i < 500 && connect_close(0); i++)
		usleep(20000);
	for (i = 0; i < n; i++)
		made += connect_close(i & 1) == 0;
	usleep(500000);
	CHECK(made == n, "%d connect/close in a row to a waiting master (%d connected)",
	      n, made);
}

static int usage(int code)
{
	printf("usage: relcheck twoway|timeout|signals|connect|peer|mmap|threads\n"
	       "       relcheck cap N | memcg | dumps N | flood N\n\n"
	       "Check the device's reliability guarantees (module loaded, devices\n"
	       "unused).  Prints PASS/FAIL lines; exit 1 on a failure.\n");
	return code;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fn)(struct rig *rig);
	} tests[] = {
		{ "twoway", test_twoway }, { "timeout", test_timeout },
		{ "signals", test_signals }, { "connect", test_connect },
		{ "peer", test_peer }, { "mmap", test_mmap },
		{ "memcg", test_memcg }, { "threads", test_threads },
	};
	struct rig rig = { .m = -1, .s = -1 };
	struct syncdev_info info;
	unsigned int i;
	int fd;

	set_progname(argv[0]);
	if (argc < 2 || !strcmp(argv[1], "--help"))
		return usage(argc < 2 ? EXIT_USAGE : EXIT_OK);
	signal(SIGPIPE, SIG_IGN);
	fd = dt_open(SYNCDEV_MASTER_PATH, O_RDWR);
	if (ioctl(fd, SYNCDEV_IOC_INFO, &info))
		die_errno("SYNCDEV_IOC_INFO");
	rig.bufsz = (size_t)info.buf_size;
	close(fd);
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		if (!strcmp(argv[1], tests[i].name) && argc == 2) {
			tests[i].fn(&rig);
			return check_done();
		}
	if (argc == 3 && !strcmp(argv[1], "cap"))
		test_cap(&rig, atoi(argv[2]));
	else if (argc == 3 && !strcmp(argv[1], "dumps"))
		test_dumps(atoi(argv[2]));
	else if (argc == 3 && !strcmp(argv[1], "flood"))
		test_flood(atoi(argv[2]));
	else
		return usage(EXIT_USAGE);
	return check_done();
}
