// SPDX-License-Identifier: GPL-2.0
/*
 * rulecheck: what the module lets a local user do and what it holds a
 * peer to (docs/protocol.md), one "PASS name" / "FAIL name: why" line
 * each.  Runs in the test guest with the module loaded; the parts that
 * are about another user run under asuser (tests/vm/74-rules.sh).
 *
 *	rulecheck fmode		each ioctl against the file's open mode
 *	rulecheck dump		page dumps of the buffer and of anonymous
 *				memory (the script reads the lines)
 *	rulecheck share N	N buffers fit in this user's share, not N + 1;
 *				with "hold", keep them until killed
 *	rulecheck accept	ACCEPT once and report it (in the background)
 *	rulecheck busy		ACCEPT while another user's master listens
 *	rulecheck connect	CONNECT once to 127.0.0.1 and close
 *	rulecheck handshake	the handshake deadline against a slow peer,
 *				on either side
 *
 * A call that blocks when it should not is ended by an alarm (EINTR),
 * which then fails its check; nothing measures time.
 */
#include "../unit/check.h"
#include "devtest.h"
#include "util.h"

#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/time.h>

#define ALARM_S		20
#define LEGACY_CLOSE	SYNCDEV_LEGACY_CLOSE

static void on_alarm(int sig)
{
	(void)sig;
}

/*
 * Blocking calls end with EINTR when the alarm rings, never restart; with
 * @every, it rings every @seconds, so that each of a series of calls that
 * should not block ends.
 */
static void arm_alarm_every(unsigned int seconds, int every)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval it = { { every ? seconds : 0, 0 }, { seconds, 0 } };

	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
}

static void arm_alarm(unsigned int seconds)
{
	arm_alarm_every(seconds, 0);
}

static int set_handshake(int fd, uint32_t ms, uint32_t reserved)
{
	struct syncdev_handshake h = { ms, reserved };

	return ioctl(fd, SYNCDEV_IOC_SET_HANDSHAKE, &h);
}

static void fmode_master(void)
{
	int r = dt_open(SYNCDEV_MASTER_PATH, O_RDONLY);
	struct syncdev_timeout t = { 0, 0 };
	struct syncdev_peer p = { 0, 0 };
	struct syncdev_info info;

	arm_alarm_every(5, 1);
	CHECK(ERRNO_IS(ioctl(r, SYNCDEV_IOC_ACCEPT), EBADF),
	      "O_RDONLY master: ACCEPT is EBADF");
	CHECK(ERRNO_IS(ioctl(r, SYNCDEV_LEGACY_CONNECT, 0), EBADF),
	      "O_RDONLY master: legacy accept (0x12345677) is EBADF");
	CHECK(ERRNO_IS(dt_xfer(r, SYNCDEV_IOC_SEND, 0, 1, 0, 0), EBADF),
	      "O_RDONLY master: SEND is EBADF");
	CHECK(ERRNO_IS(ioctl(r, SYNCDEV_LEGACY_XFER, 1), EBADF),
	      "O_RDONLY master: legacy send (0x12345678) is EBADF");
	CHECK(ERRNO_IS(ioctl(r, SYNCDEV_IOC_DISCONNECT), EBADF) &&
	      ERRNO_IS(ioctl(r, LEGACY_CLOSE, 0), EBADF),
	      "O_RDONLY master: DISCONNECT and legacy close are EBADF");
	CHECK(ERRNO_IS(ioctl(r, SYNCDEV_IOC_SET_TIMEOUT, &t), EBADF) &&
	      ERRNO_IS(ioctl(r, SYNCDEV_IOC_SET_PEER, &p), EBADF) &&
	      ERRNO_IS(set_handshake(r, 1000, 0), EBADF) &&
	      ERRNO_IS(ioctl(r, SYNCDEV_IOC_CONFIRM), EBADF),
	      "O_RDONLY master: SET_TIMEOUT, SET_PEER, SET_HANDSHAKE, CONFIRM are EBADF");
	CHECK(ioctl(r, SYNCDEV_IOC_INFO, &info) == 0,
	      "O_RDONLY master: INFO works");
	CHECK(ERRNO_IS(dt_xfer(r, SYNCDEV_IOC_RECV, 0, 1, 0, 0), ENOTCONN),
	      "O_RDONLY master: RECV is allowed (ENOTCONN without a connection)");
	CHECK(ERRNO_IS(dt_connect(r, "127.0.0.1", 1, 100), ENOTTY),
	      "O_RDONLY master: CONNECT is still ENOTTY (not the master's)");
	arm_alarm(0);
	close(r);
}

static void fmode_slave(void)
{
	int r = dt_open(SYNCDEV_SLAVE_PATH, O_RDONLY);
	int w = dt_open(SYNCDEV_SLAVE_PATH, O_WRONLY);

	arm_alarm_every(5, 1);
	CHECK(ERRNO_IS(dt_connect(r, "127.0.0.1", 1, 100), EBADF),
	      "O_RDONLY slave: CONNECT is EBADF");
	CHECK(ERRNO_IS(ioctl(r, SYNCDEV_LEGACY_CONNECT, "127.0.0.1:1"), EBADF),
	      "O_RDONLY slave: legacy connect (0x12345677) is EBADF");
	CHECK(ERRNO_IS(ioctl(r, SYNCDEV_LEGACY_XFER, 0), ENOTCONN),
	      "O_RDONLY slave: legacy receive is allowed (ENOTCONN without a connection)");
	CHECK(ERRNO_IS(ioctl(r, SYNCDEV_IOC_ACCEPT), ENOTTY),
	      "O_RDONLY slave: ACCEPT is still ENOTTY (not the slave's)");
	CHECK(ERRNO_IS(dt_xfer(w, SYNCDEV_IOC_RECV, 0, 1, 0, 0), EBADF),
	      "O_WRONLY slave: RECV is EBADF");
	CHECK(ERRNO_IS(dt_connect(w, "127.0.0.1", 1, 100), ECONNREFUSED),
	      "O_WRONLY slave: CONNECT is allowed (refused by port 1)");
	arm_alarm(0);
	close(r);
	close(w);
}

/* The open modes the course's programs and master/slave use still work. */
static void fmode_rdwr(void)
{
	unsigned char c = 0;
	int m, s;

	if (dt_pair(&m, &s)) {
		CHECK(0, "O_RDWR master and slave connect");
		return;
	}
	CHECK(write(m, "x", 1) == 1 && read(s, &c, 1) == 1 && c == 'x',
	      "O_RDWR master and slave connect and carry a byte");
	close(m);
	close(s);
}

static void test_fmode(void)
{
	fmode_master();
	fmode_slave();
	fmode_rdwr();
}

/*
 * One page dump of the buffer and one of anonymous memory, each after a
 * line of its own on stdout that names the session; the script checks
 * the fields of the lines that follow its mark.
 */
static void test_dump(void)
{
	int fd = dt_open(SYNCDEV_MASTER_PATH, O_RDWR);
	uint64_t addr;
	char *buf, *anon;

	buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	anon = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED || anon == MAP_FAILED) {
		CHECK(0, "map the buffer and an anonymous page");
		return;
	}
	buf[0] = 1;
	anon[0] = 1;
	addr = 0;
	CHECK(ioctl(fd, SYNCDEV_IOC_PRINT_PAGE, &addr) == 0,
	      "PRINT_PAGE of the buffer");
	addr = (uintptr_t)anon;
	CHECK(ioctl(fd, SYNCDEV_IOC_PRINT_PAGE, &addr) == 0,
	      "PRINT_PAGE of an anonymous page");
	munmap(buf, 4096);
	munmap(anon, 4096);
	close(fd);
}

/*
 * Sessions with a buffer each, until one is refused: @n of them, then
 * ENOSPC.  With @hold, the buffers stay until the process is killed, for
 * another user's run to try its own share meanwhile.
 */
static void test_share(int n, int hold)
{
	int fds[64], got = 0, i, err = 0;
	void *p;

	for (i = 0; i < 64; i++) {
		fds[i] = dt_open(SYNCDEV_MASTER_PATH, O_RDWR);
		p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fds[i], 0);
		if (p == MAP_FAILED) {
			err = errno;
			close(fds[i]);
			break;
		}
		got++;
	}
	CHECK(got == n && err == ENOSPC,
	      "uid %u: %d buffers, then ENOSPC (got %d, then %s)",
	      (unsigned int)getuid(), n, got, strerror(err));
	fflush(stdout);
	if (hold)
		pause();
	for (i = 0; i < got; i++)
		close(fds[i]);
}

/* ACCEPT on a master of our own; the listener stays while it waits. */
static void test_accept(void)
{
	int m = dt_open(SYNCDEV_MASTER_PATH, O_RDWR);
	int ret;

	arm_alarm(ALARM_S * 3);
	ret = ioctl(m, SYNCDEV_IOC_ACCEPT);
	CHECK(ret == 0, "uid %u: ACCEPT gets the slave (%s)",
	      (unsigned int)getuid(), ret ? strerror(errno) : "no error");
	close(m);
}

static void test_busy(void)
{
	int m = dt_open(SYNCDEV_MASTER_PATH, O_RDWR);

	arm_alarm(ALARM_S);
	CHECK(ERRNO_IS(ioctl(m, SYNCDEV_IOC_ACCEPT), EADDRINUSE),
	      "uid %u: ACCEPT while another user's master listens is EADDRINUSE (%s)",
	      (unsigned int)getuid(), strerror(errno));
	close(m);
}

/*
 * CONNECT, then hold the connection until the master's side ends it: a
 * connection whose slave already closed it is one ACCEPT rightly skips.
 */
static void test_connect(void)
{
	int s = dt_open(SYNCDEV_SLAVE_PATH, O_RDWR);
	ssize_t n;
	char c;

	CHECK(dt_connect(s, "127.0.0.1", 0, 0) == 0,
	      "uid %u: CONNECT to the listening master", (unsigned int)getuid());
	arm_alarm(ALARM_S * 3);
	n = read(s, &c, 1);
	CHECK(n == 0, "uid %u: the master accepted, then closed: end of file (%zd, %s)",
	      (unsigned int)getuid(), n, n < 0 ? strerror(errno) : "no error");
	close(s);
}

/* A peer that sends one byte every 200 ms until told to stop. */
struct trickler {
	pthread_t thread;
	int fd;
	atomic_int stop;
};

static void *trickle(void *arg)
{
	const struct timespec pause = { 0, 200 * 1000000L };
	struct trickler *tr = arg;
	int i;

	for (i = 0; i < 100 && !atomic_load(&tr->stop); i++) {
		if (write(tr->fd, "h", 1) != 1)
			break;
		nanosleep(&pause, NULL);
	}
	return NULL;
}

static void trickle_start(struct trickler *tr, int fd)
{
	tr->fd = fd;
	atomic_init(&tr->stop, 0);
	pthread_create(&tr->thread, NULL, trickle, tr);
}

static void trickle_stop(struct trickler *tr)
{
	atomic_store(&tr->stop, 1);
	pthread_join(tr->thread, NULL);
}

/* Read one byte at a time until an error: the bytes read, errno in *@err. */
static int read_until_error(int fd, int max, int *err)
{
	unsigned char c;
	int n = 0;
	ssize_t r;

	*err = 0;
	while (n < max) {
		r = read(fd, &c, 1);
		if (r != 1) {
			*err = r < 0 ? errno : 0;
			break;
		}
		n++;
	}
	return n;
}

static uint32_t strangers(int fd)
{
	struct syncdev_info info;

	memset(&info, 0xff, sizeof(info));
	return ioctl(fd, SYNCDEV_IOC_INFO, &info) ? ~0u : info.strangers;
}

/* A connected pair whose sides set these handshake deadlines first. */
static int hs_pair(int *m, int *s, uint32_t master_ms, uint32_t slave_ms)
{
	const struct timespec pause = { 0, 20 * 1000000L };
	pthread_t t;
	int i, ret;

	*m = dt_open(SYNCDEV_MASTER_PATH, O_RDWR);
	*s = dt_open(SYNCDEV_SLAVE_PATH, O_RDWR);
	if (set_handshake(*m, master_ms, 0) || set_handshake(*s, slave_ms, 0)) {
		CHECK(0, "SET_HANDSHAKE %u ms / %u ms (%s)", master_ms,
		      slave_ms, strerror(errno));
		close(*m);
		close(*s);
		return -1;
	}
	pthread_create(&t, NULL, dt_accept_thread, m);
	/* Refused until the thread's ACCEPT created the listener. */
	for (i = 0; i < 500; i++) {
		ret = dt_connect(*s, "127.0.0.1", 0, 0);
		if (!ret || errno != ECONNREFUSED)
			break;
		nanosleep(&pause, NULL);
	}
	if (ret) {
		CHECK(0, "connect a pair (%s)", strerror(errno));
		dt_poke_listener();
	}
	pthread_join(t, NULL);
	if (ret) {
		close(*m);
		close(*s);
	}
	return ret;
}

/*
 * One side reads while its peer trickles: a 1000 ms deadline ends it long
 * before 100 bytes (20 s) are in, though each byte comes well within the
 * progress timeout.
 */
static void handshake_cut(int master_side)
{
	const char *side = master_side ? "master" : "slave";
	struct trickler tr;
	int m, s, n, err, reader;

	if (hs_pair(&m, &s, master_side ? 1000 : 0, master_side ? 0 : 1000))
		return;
	reader = master_side ? m : s;
	trickle_start(&tr, master_side ? s : m);
	n = read_until_error(reader, 100, &err);
	CHECK(n < 100 && err == ETIMEDOUT,
	      "%s: a peer that trickles its greeting is cut at the handshake deadline (%d bytes, then %s)",
	      side, n, strerror(err));
	CHECK(ERRNO_IS(read(reader, &n, 1), ETIMEDOUT) &&
	      ERRNO_IS(ioctl(reader, SYNCDEV_IOC_CONFIRM), ETIMEDOUT),
	      "%s: after the deadline the connection stays failed (ETIMEDOUT), CONFIRM too",
	      side);
	CHECK(strangers(reader) == 1, "%s: INFO counts 1 stranger", side);
	trickle_stop(&tr);
	close(m);
	close(s);
}

/* Confirmed in time, the connection outlives the deadline. */
static void handshake_confirmed(void)
{
	struct trickler tr;
	int m, s, n, err;

	if (hs_pair(&m, &s, 1000, 0))
		return;
	CHECK(ioctl(m, SYNCDEV_IOC_CONFIRM) == 0,
	      "master: CONFIRM within the deadline");
	trickle_start(&tr, s);
	n = read_until_error(m, 30, &err);
	CHECK(n == 30 && strangers(m) == 0,
	      "master: once confirmed, 30 bytes over 6 s go past the 1000 ms deadline (%d bytes, %s)",
	      n, strerror(err));
	trickle_stop(&tr);
	close(m);
	close(s);
}

static void test_handshake(void)
{
	int m = dt_open(SYNCDEV_MASTER_PATH, O_RDWR);

	CHECK(ERRNO_IS(set_handshake(m, 1000, 1), EINVAL),
	      "SET_HANDSHAKE with reserved set is EINVAL");
	CHECK(ERRNO_IS(ioctl(m, SYNCDEV_IOC_CONFIRM), ENOTCONN),
	      "CONFIRM without a connection is ENOTCONN");
	close(m);
	arm_alarm(ALARM_S * 3);
	handshake_cut(1);
	handshake_cut(0);
	handshake_confirmed();
	arm_alarm(0);
}

static int usage(int code)
{
	printf("usage: rulecheck fmode|dump|accept|busy|connect|handshake\n"
	       "       rulecheck share N [hold]\n\n"
	       "Check the module's rules for local users and unconfirmed peers\n"
	       "(module loaded).  Prints PASS/FAIL lines; exit 1 on a failure.\n");
	return code;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} tests[] = {
		{ "fmode", test_fmode }, { "dump", test_dump },
		{ "accept", test_accept }, { "busy", test_busy },
		{ "connect", test_connect }, { "handshake", test_handshake },
	};
	unsigned int i;

	set_progname(argv[0]);
	if (argc < 2 || !strcmp(argv[1], "--help"))
		return usage(argc < 2 ? EXIT_USAGE : EXIT_OK);
	signal(SIGPIPE, SIG_IGN);
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		if (!strcmp(argv[1], tests[i].name) && argc == 2) {
			tests[i].fn();
			return check_done();
		}
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "share"))
		test_share(atoi(argv[2]), argc == 4 && !strcmp(argv[3], "hold"));
	else
		return usage(EXIT_USAGE);
	return check_done();
}
