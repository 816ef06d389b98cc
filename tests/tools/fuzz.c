// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz: random ioctl, mmap, read and write calls on the syncdev devices,
 * the same sequence for the same seed, until a number of calls is reached
 * (or a time limit, which is then a failure).  Built for 64 bits and, as
 * fuzz32, for 32 bits, which goes through the compat ioctl path.
 *
 *	fuzz [--seed N] [--calls N] [--seconds N]
 *
 * Besides "the kernel survives" (the harness checks its log) it checks
 * what the contract promises for every call it can predict:
 *  - unknown commands of syncdev's magic and terminal ones fail with
 *    ENOTTY (any other number makes a legacy session), bad pointers with
 *    EFAULT, and no call ever fails with an errno outside the documented
 *    set (EALREADY or a leaked ERESTARTSYS would be bugs);
 *  - mmap: MAP_PRIVATE and ranges past the buffer are EINVAL, a writable
 *    shared mapping of an O_RDONLY file EACCES, anything else works (in
 *    a legacy session any offset, the buffer from its start, and numbers
 *    outside the _IO* and terminal ones may be page dumps); a
 *    shadow copy of each buffer is compared with what every mapping shows,
 *    also after MADV_DONTNEED, munmap and mremap;
 *  - a connected pair carries a checked byte pattern both ways through
 *    write/read and SEND/RECV, while a 10 ms timer interrupts every
 *    blocking call: every byte arrives once and in order, an interrupted
 *    SEND or WAITALL RECV resumes when retried, and the stream only ends
 *    where the fuzzer ended it.
 * Prints "PASS fuzz ..." or one "FAIL fuzz: ..." line per anomaly (the
 * first 20) and exits 1.
 */
#include "devtest.h"
#include "testpat.h"

#include <signal.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/time.h>

#define NSESS		6
#define NMAP		12
#define MAX_REPORTS	20
#define SCRATCH_PAGES	16
/* Ports the random sessions connect to: never the module's. */
#define FUZZ_PORT	9
/* Bytes in flight on the pair before the fuzzer reads first. */
#define MAX_IN_FLIGHT	(256 * 1024)

struct shadow {
	unsigned char *data;	/* what the session's buffer holds */
	int refs;		/* the open file and each mapping */
};

struct sess {
	int fd;			/* -1: free slot */
	int master;
	int rdonly;
	int legacy;		/* called with a number of course_cmd() */
	struct shadow *sh;
};

struct map {
	unsigned char *addr;	/* NULL: free slot */
	size_t len;
	size_t off;		/* in the buffer */
	int prot;
	struct shadow *sh;
};

static struct sess sess[NSESS];
static struct map maps[NMAP];
static size_t bufsz, page;
static uint64_t rng;
static unsigned long long seed, calls, anomalies;
static unsigned char *scratch, *guard;	/* guard: PROT_NONE after scratch */
static volatile sig_atomic_t ticks;

/* The connected pair and the pattern positions of its two directions. */
static struct {
	int fd[2];		/* [0] master, [1] slave */
	unsigned char *map[2];	/* each side's whole buffer */
	uint64_t sent[2], got[2];	/* [d]: direction d, 0 = m->s */
	int ending;		/* the fuzzer ended the stream on purpose */
	unsigned long long made;
	unsigned long long checked;	/* bytes received and compared */
	unsigned long long resumed;	/* SENDs that completed after EINTR */
} pr;

static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ULL;
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static int chance(int pct)
{
	return (int)below(100) < pct;
}

static void anomaly(const char *fmt, ...)
{
	va_list ap;

	if (++anomalies > MAX_REPORTS)
		return;
	printf("FAIL fuzz: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" (seed %llu, call %llu)\n", seed, calls);
	fflush(stdout);
}

/* The errors a device call may give; anything else is a bug. */
static int errno_allowed(int e)
{
	static const int ok[] = {
		ENOTTY, EFAULT, EINVAL, ENOTCONN, EISCONN, ECONNREFUSED,
		ETIMEDOUT, EINTR, EPIPE, ECONNRESET, ENETUNREACH,
		EHOSTUNREACH, EACCES, ENOSPC, ENOMEM, EAGAIN, EADDRINUSE,
		ECONNABORTED, EADDRNOTAVAIL, EBADF,
	};
	unsigned int i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (e == ok[i])
			return 1;
	return 0;
}

static long note(const char *what, long ret)
{
	calls++;
	if (ret == -1 && !errno_allowed(errno))
		anomaly("%s: unexpected errno %d (%s)", what, errno,
			strerror(errno));
	return ret;
}

static void on_alarm(int sig)
{
	(void)sig;
	ticks++;
}

static void on_fault(int sig, siginfo_t *si, void *ctx)
{
	char line[160];
	int n;

	(void)ctx;
	n = snprintf(line, sizeof(line),
		     "FAIL fuzz: signal %d at %p in a mapping the model says is valid (seed %llu, call %llu)\n",
		     sig, si->si_addr, seed, calls);
	if (write(1, line, (size_t)n) < 0)
		_exit(2);
	_exit(1);
}

static void block_alarm(int block)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	sigprocmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

static void shadow_put(struct shadow *sh)
{
	if (sh && !--sh->refs) {
		free(sh->data);
		free(sh);
	}
}

static void sess_open(int i)
{
	static const int extra[] = { 0, O_NONBLOCK, O_CLOEXEC };
	struct sess *s = &sess[i];

	s->master = chance(50);
	s->rdonly = chance(25);
	s->legacy = 0;
	s->fd = (int)note("open", open(s->master ? SYNCDEV_MASTER_PATH :
				       SYNCDEV_SLAVE_PATH,
				       (s->rdonly ? O_RDONLY : O_RDWR) |
				       extra[below(3)]));
	if (s->fd < 0) {
		anomaly("open: %s", strerror(errno));
		return;
	}
	s->sh = calloc(1, sizeof(*s->sh));
	s->sh->data = calloc(1, bufsz);	/* a new buffer is zeroed */
	s->sh->refs = 1;
}

static void sess_close(int i)
{
	struct sess *s = &sess[i];

	if (s->fd < 0)
		return;
	note("close", close(s->fd));
	shadow_put(s->sh);
	s->fd = -1;
	s->sh = NULL;
}

/* A random open session (opening one if the slot is free). */
static struct sess *any_sess(void)
{
	int i = (int)below(NSESS);

	if (sess[i].fd < 0)
		sess_open(i);
	return sess[i].fd < 0 ? NULL : &sess[i];
}

static struct map *free_map(void)
{
	int i;

	for (i = 0; i < NMAP; i++)
		if (!maps[i].addr)
			return &maps[i];
	return NULL;
}

static struct map *any_map(void)
{
	struct map *m = &maps[below(NMAP)];

	return m->addr ? m : NULL;
}

static void map_drop(struct map *m)
{
	shadow_put(m->sh);
	memset(m, 0, sizeof(*m));
}

/* mmap with random length, offset, protection and flags; the result is
 * predicted exactly except for PROT_EXEC (devtmpfs may be noexec). */
static void op_mmap(void)
{
	static const int prots[] = { PROT_READ, PROT_WRITE,
				     PROT_READ | PROT_WRITE, PROT_NONE,
				     PROT_READ | PROT_EXEC };
	size_t pages = bufsz / page, len = (1 + below(pages + 1)) * page;
	size_t pg = chance(80) ? below(pages) : below(pages + 4);
	int prot = prots[below(5)], priv = chance(10), want;
	struct sess *s = any_sess();
	struct map *m = free_map();
	void *p;

	if (!s || !m)
		return;
	/* Legacy: within the buffer's length, so that every page is one. */
	if (s->legacy && len > bufsz)
		len = bufsz;
	want = priv ? EINVAL :
	       (s->rdonly && (prot & PROT_WRITE)) ? EACCES :
	       (!s->legacy && pg * page + len > bufsz) ? EINVAL : 0;
	calls++;
	p = mmap(NULL, len, prot, priv ? MAP_PRIVATE : MAP_SHARED, s->fd,
		 (off_t)(pg * page));
	if (p == MAP_FAILED) {
		if (errno != want && !(prot & PROT_EXEC && errno == EPERM) &&
		    errno != ENOSPC && errno != ENOMEM)
			anomaly("mmap %zu bytes at page %zu prot %d%s: %s, want %s",
				len, pg, prot, priv ? " private" : "",
				strerror(errno), want ? strerror(want) : "success");
		return;
	}
	if (want) {
		anomaly("mmap %zu bytes at page %zu prot %d%s succeeded, want %s",
			len, pg, prot, priv ? " private" : "", strerror(want));
		munmap(p, len);
		return;
	}
	*m = (struct map){ p, len, s->legacy ? 0 : pg * page, prot, s->sh };
	s->sh->refs++;
}

/* munmap, mremap, mprotect or madvise of a mapping. */
static void op_vma(void)
{
	static const int advice[] = { MADV_DONTNEED, MADV_NORMAL, MADV_RANDOM,
				      MADV_SEQUENTIAL, MADV_WILLNEED,
				      MADV_DONTFORK, MADV_DOFORK,
				      MADV_DONTDUMP, MADV_DODUMP, MADV_FREE,
				      MADV_REMOVE, MADV_COLD, MADV_PAGEOUT };
	struct map *m = any_map();
	void *p;

	if (!m)
		return;
	switch (below(5)) {
	case 0:
		note("munmap", munmap(m->addr, m->len));
		map_drop(m);
		break;
	case 1:
		calls++;
		p = mremap(m->addr, m->len, m->len + page, MREMAP_MAYMOVE);
		if (p != MAP_FAILED)
			anomaly("mremap grew a mapping of the device");
		break;
	case 2:
		if (m->len > page && note("mremap", (long)(intptr_t)
				 mremap(m->addr, m->len, m->len - page, 0)) != -1)
			m->len -= page;
		break;
	case 3:
		/* Only narrowing: a read-only file cannot gain PROT_WRITE. */
		if (note("mprotect", mprotect(m->addr, m->len, PROT_READ)) == 0)
			m->prot = PROT_READ;
		break;
	default:
		/* Memory management's answer (ENODEV, EINVAL...) is its own. */
		calls++;
		madvise(m->addr, m->len, advice[below(13)]);
	}
}

/* Write random bytes through a mapping, or compare what one shows. */
static void op_touch(void)
{
	struct map *m = any_map();
	size_t off, len, i;

	if (!m || !(m->prot & PROT_READ))
		return;
	off = below(m->len);
	len = 1 + below(m->len - off < 512 ? m->len - off : 512);
	if ((m->prot & PROT_WRITE) && chance(50)) {
		for (i = 0; i < len; i++)
			m->sh->data[m->off + off + i] = m->addr[off + i] =
				(unsigned char)rnd();
		return;
	}
	if (memcmp(m->addr + off, m->sh->data + m->off + off, len))
		anomaly("a mapping at buffer offset %zu shows other bytes than were written",
			m->off + off);
}

enum { PTR_NULL, PTR_GOOD, PTR_MAPPED, PTR_BAD, PTR_STRADDLE };

/*
 * A user pointer and what a read of up to 64 bytes from it does: NULL,
 * good (scratch), into a mapping (unpredictable near its end), bad
 * (unmapped, or the kernel's half on 64 bits), or straddling into the
 * unmapped guard page (a structure faults, a short string may not).
 */
static unsigned long any_pointer(int *kind)
{
	struct map *m;

	switch (below(6)) {
	case 0:
		*kind = PTR_NULL;
		return 0;
	case 1:
		m = any_map();
		if (m && (m->prot & PROT_READ)) {
			*kind = PTR_MAPPED;
			return (unsigned long)(uintptr_t)(m->addr + below(m->len));
		}
		/* fall through */
	case 2:
		*kind = PTR_GOOD;
		return (unsigned long)(uintptr_t)(scratch + below(page));
	case 3:
		*kind = PTR_BAD;
		return (unsigned long)(uintptr_t)guard;
	case 4:
		*kind = PTR_BAD;
		return ~0UL << 12;	/* the kernel's half */
	default:
		*kind = PTR_STRADDLE;
		return (unsigned long)(uintptr_t)(guard - below(7) - 1);
	}
}

static const uint32_t known_cmds[] = {
	SYNCDEV_IOC_ACCEPT, SYNCDEV_IOC_CONNECT, SYNCDEV_IOC_SEND,
	SYNCDEV_IOC_RECV, SYNCDEV_IOC_DISCONNECT, SYNCDEV_IOC_PRINT_PAGE,
	SYNCDEV_IOC_INFO, SYNCDEV_IOC_SET_TIMEOUT, SYNCDEV_IOC_SET_PEER,
	SYNCDEV_IOC_SET_HANDSHAKE, SYNCDEV_IOC_CONFIRM, SYNCDEV_LEGACY_PRINT, SYNCDEV_LEGACY_CONNECT, SYNCDEV_LEGACY_XFER,
	SYNCDEV_LEGACY_CLOSE,
};
#define NKNOWN	(sizeof(known_cmds) / sizeof(known_cmds[0]))

static int is_known(uint32_t cmd)
{
	unsigned int i;

	for (i = 0; i < NKNOWN; i++)
		if (cmd == known_cmds[i])
			return 1;
	return 0;
}

/* Known commands, their neighbours (other sizes and directions), noise. */
static uint32_t any_cmd(void)
{
	switch (below(4)) {
	case 0:
	case 1:
		return known_cmds[below(NKNOWN)];
	case 2:
		return _IOC((uint32_t)below(4), SYNCDEV_IOC_MAGIC,
			    (uint32_t)below(16), (uint32_t)below(64));
	default:
		return chance(50) ? 0x12345670u + (uint32_t)below(16) :
				    (uint32_t)rnd();
	}
}

/* An address string for the legacy connect; never the module's port. */
static void any_address(char *p)
{
	static const char *const strs[] = {
		"127.0.0.1:9", "127.0.0.1:0", "300.1.1.1:9", "1.2.3.4:99999",
		"0.0.0.0:9", "224.0.0.1:9", "127.0.0.1:9x", "",
	};
	size_t i, n;

	if (chance(70)) {
		strcpy(p, strs[below(8)]);
		return;
	}
	/* Letters only (never an address), terminated or not within 32. */
	n = below(40);
	for (i = 0; i < n; i++)
		p[i] = (char)('a' + below(26));
	p[n] = chance(50) ? 0 : 'z';
	memset(p + n + 1, 'z', 31);
	p[n + 32] = 0;
}

/* A plausible argument for @cmd at @p (scratch), often slightly wrong. */
static void plausible(uint32_t cmd, unsigned char *p)
{
	uint32_t r = chance(85) ? 0 : (uint32_t)rnd();
	struct syncdev_connect c = { htonl(INADDR_LOOPBACK), FUZZ_PORT, 0,
				     1 + (uint32_t)below(200), r };
	struct syncdev_xfer x = { below(bufsz + 2), below(bufsz + 2),
				  (uint32_t)below(3), r };
	struct syncdev_timeout t = { 100 + (uint32_t)below(2000), r };
	struct syncdev_peer pe = { (uint32_t)rnd(), r };
	struct syncdev_handshake h = { (uint32_t)below(5000), r };
	uint64_t u = 0;
	int kind;

	switch (cmd) {
	case SYNCDEV_IOC_CONNECT:
		if (chance(20))
			c.addr = (uint32_t)rnd();
		c.flags = (uint16_t)(chance(90) ? 0 : rnd());
		memcpy(p, &c, sizeof(c));
		break;
	case SYNCDEV_IOC_SEND:
	case SYNCDEV_IOC_RECV:
		memcpy(p, &x, sizeof(x));
		break;
	case SYNCDEV_IOC_PRINT_PAGE:
		u = chance(80) ? any_pointer(&kind) : rnd();
		memcpy(p, &u, sizeof(u));
		break;
	case SYNCDEV_IOC_SET_TIMEOUT:
		memcpy(p, &t, sizeof(t));
		break;
	case SYNCDEV_IOC_SET_PEER:
		memcpy(p, &pe, sizeof(pe));
		break;
	case SYNCDEV_IOC_SET_HANDSHAKE:
		memcpy(p, &h, sizeof(h));
		break;
	case SYNCDEV_LEGACY_CONNECT:
		any_address((char *)p);
		break;
	default:
		for (u = 0; u < 64; u++)
			p[u] = (unsigned char)rnd();
	}
}

/*
 * Whether an O_RDONLY file is refused @cmd (EBADF): everything that sends
 * or changes the session; receiving, INFO and page dumps are not.
 */
static int needs_write(const struct sess *s, uint32_t cmd)
{
	switch (cmd) {
	case SYNCDEV_LEGACY_XFER:
		return s->master;
	case SYNCDEV_IOC_ACCEPT:
	case SYNCDEV_IOC_CONNECT:
	case SYNCDEV_IOC_SEND:
	case SYNCDEV_IOC_DISCONNECT:
	case SYNCDEV_IOC_SET_TIMEOUT:
	case SYNCDEV_IOC_SET_PEER:
	case SYNCDEV_IOC_SET_HANDSHAKE:
	case SYNCDEV_IOC_CONFIRM:
	case SYNCDEV_LEGACY_CONNECT:
	case SYNCDEV_LEGACY_CLOSE:
		return 1;
	}
	return 0;
}

/*
 * A number outside syncdev's magic and the terminal ioctls: a course
 * program's, which makes the session a legacy one and, unless it is one of
 * the legacy numbers, asks for a page dump.
 */
static int course_cmd(uint32_t cmd)
{
	return _IOC_TYPE(cmd) != SYNCDEV_IOC_MAGIC && _IOC_TYPE(cmd) != 'T';
}

/* The errno a call must fail with when it can be told in advance. */
static int expected(const struct sess *s, uint32_t cmd, int kind)
{
	int bad = kind == PTR_NULL || kind == PTR_BAD;
	int partly = bad || kind == PTR_STRADDLE;

	if (!is_known(cmd))
		return course_cmd(cmd) ? -1 : ENOTTY;
	if ((cmd == SYNCDEV_IOC_ACCEPT && !s->master) ||
	    (cmd == SYNCDEV_IOC_CONNECT && s->master))
		return ENOTTY;
	if (s->rdonly && needs_write(s, cmd))
		return EBADF;
	switch (cmd) {
	case SYNCDEV_IOC_CONNECT:
	case SYNCDEV_IOC_SEND:
	case SYNCDEV_IOC_RECV:
	case SYNCDEV_IOC_PRINT_PAGE:
	case SYNCDEV_IOC_INFO:
	case SYNCDEV_IOC_SET_TIMEOUT:
	case SYNCDEV_IOC_SET_PEER:
	case SYNCDEV_IOC_SET_HANDSHAKE:
		return partly ? EFAULT : -1;
	case SYNCDEV_IOC_CONFIRM:
		return ENOTCONN;
	case SYNCDEV_LEGACY_CONNECT:
		return bad && !s->master ? EFAULT : -1;
	}
	return -1;
}

/* A random command on a random session; its errno checked. */
static void op_ioctl(void)
{
	struct sess *s = any_sess();
	uint32_t cmd = any_cmd();
	unsigned long arg;
	int kind, want;
	long ret;

	if (!s)
		return;
	arg = any_pointer(&kind);
	/* INFO writes: never into a mapping (the shadow would not know). */
	if (kind == PTR_MAPPED && cmd == SYNCDEV_IOC_INFO) {
		arg = (unsigned long)(uintptr_t)scratch;
		kind = PTR_GOOD;
	}
	if (kind == PTR_GOOD)
		plausible(cmd, (unsigned char *)(uintptr_t)arg);
	else if (chance(30) && (cmd == SYNCDEV_LEGACY_XFER ||
				cmd == SYNCDEV_LEGACY_PRINT))
		arg = (unsigned long)rnd();
	want = expected(s, cmd, kind);
	if (course_cmd(cmd) && want != EBADF)
		s->legacy = 1;
	ret = note("ioctl", ioctl(s->fd, cmd, arg));
	if (want > 0 && !(ret == -1 && errno == want))
		anomaly("ioctl %#x on a %s: %s, want %s", cmd,
			s->master ? "master" : "slave",
			ret == -1 ? strerror(errno) : "success", strerror(want));
}

/* read() or write() on a random (never connected) session. */
static void op_rw(void)
{
	struct sess *s = any_sess();
	size_t len = chance(10) ? 0 : 1 + below(4096);
	int kind, w = chance(50), want;
	unsigned long p;
	long ret;

	if (!s)
		return;
	p = any_pointer(&kind);
	if (kind == PTR_MAPPED)
		p = (unsigned long)(uintptr_t)scratch;
	/*
	 * -1: not predicted (a kernel pointer with a length of 0).  A 32-bit
	 * program has no kernel half: its "kernel" pointer passes access_ok.
	 */
	want = (w && s->rdonly) ? EBADF :
	       (p >= (~0UL << 12) && sizeof(long) == 8) ? (len ? EFAULT : -1) :
	       len ? ENOTCONN : 0;
	calls++;
	ret = w ? write(s->fd, (void *)(uintptr_t)p, len) :
		  read(s->fd, (void *)(uintptr_t)p, len);
	if (want > 0 ? !(ret == -1 && errno == want) : !want && ret != 0)
		anomaly("%s of %zu bytes on an unconnected %s: %s, want %s",
			w ? "write" : "read", len, s->master ? "master" : "slave",
			ret == -1 ? strerror(errno) : "a count",
			want ? strerror(want) : "0");
}

static void pair_make(void)
{
	int i;

	block_alarm(1);
	for (i = 0; i < 2; i++) {
		if (pr.map[i])
			munmap(pr.map[i], bufsz);
		if (pr.fd[i] >= 0)
			close(pr.fd[i]);
		pr.map[i] = NULL;
		pr.fd[i] = -1;
		pr.sent[i] = pr.got[i] = 0;
	}
	pr.ending = 0;
	if (dt_pair(&pr.fd[0], &pr.fd[1])) {
		anomaly("cannot connect the pair again: %s", strerror(errno));
		exit(1);
	}
	for (i = 0; i < 2; i++) {
		pr.map[i] = mmap(NULL, bufsz, PROT_READ | PROT_WRITE,
				 MAP_SHARED, pr.fd[i], 0);
		if (pr.map[i] == MAP_FAILED) {
			anomaly("mmap of the pair: %s", strerror(errno));
			exit(1);
		}
	}
	block_alarm(0);
	pr.made++;
	calls += 5;
}

/*
 * A transfer on the pair failed with something other than EINTR: fine
 * (and the pair is made again) only where the fuzzer ended the stream.
 */
static void pair_error(int d, const char *what, long ret)
{
	if (ret == -1 && errno == EINTR)
		return;
	if (ret == -1 && errno == EAGAIN)
		return;
	if (!pr.ending)
		anomaly("%s on the pair (%s): %s", what, d ? "slave->master" :
			"master->slave", ret ? strerror(errno) : "end of stream");
	pair_make();
}

/* Check @n received bytes of direction @d; advance. */
static void pair_check(int d, const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != testpat_byte(pr.got[d] + i, (uint64_t)d)) {
			anomaly("byte %llu of the %s stream differs",
				(unsigned long long)(pr.got[d] + i),
				d ? "slave->master" : "master->slave");
			pair_make();
			return;
		}
	pr.got[d] += n;
	pr.checked += n;
}

/* Receive up to what is in flight in direction @d (rarely, more). */
static void pair_recv(int d)
{
	int fd = pr.fd[!d];
	uint64_t avail = pr.sent[d] - pr.got[d];
	size_t len = 1 + below(avail && avail < 8192 ? avail : 8192), off;
	int all = len <= avail && chance(50);
	long n;

	if (!avail && !chance(5))
		return;
	if (chance(50)) {
		n = note("read", read(fd, scratch, len));
		if (n > 0)
			pair_check(d, scratch, (size_t)n);
		else
			pair_error(d, "read", n);
		return;
	}
	off = below(bufsz - len + 1);
	while ((n = note("RECV", dt_xfer(fd, SYNCDEV_IOC_RECV, off, len,
					 all ? SYNCDEV_RECV_WAITALL : 0, 0))) < 0 &&
	       errno == EINTR && all && chance(95))
		;
	if (n > 0)
		pair_check(d, pr.map[!d] + off, (size_t)n);
	else
		pair_error(d, "RECV", n);
}

static void pair_write(int d, size_t len)
{
	size_t i;
	long n;

	for (i = 0; i < len; i++)
		scratch[i] = testpat_byte(pr.sent[d] + i, (uint64_t)d);
	n = note("write", write(pr.fd[d], scratch, len));
	if (n > 0)
		pr.sent[d] += (uint64_t)n;
	else
		pair_error(d, "write", n);
}

/* Read whatever has arrived in direction @d (blocking until a tick). */
static void pair_recv_more(int d)
{
	long n = note("read", read(pr.fd[!d], scratch, 8192));

	if (n > 0)
		pair_check(d, scratch, (size_t)n);
	else
		pair_error(d, "read", n);
}

/*
 * SEND @len bytes in direction @d.  An interrupted SEND is retried with
 * the same arguments after draining the other end (it must resume), or
 * now and then abandoned: then the next transfer that way ends the stream
 * (if some bytes had gone) or is a fresh start (if none had).
 */
static void pair_send(int d, size_t len)
{
	size_t off = below(bufsz - len + 1), i;
	unsigned long long made = pr.made;
	int tries;
	long ret;

	for (i = 0; i < len; i++)
		pr.map[d][off + i] = testpat_byte(pr.sent[d] + i, (uint64_t)d);
	for (tries = 0; tries < 400; tries++) {
		ret = note("SEND", dt_xfer(pr.fd[d], SYNCDEV_IOC_SEND, off, len,
					   0, 0));
		if (!ret) {
			pr.sent[d] += len;
			pr.resumed += tries > 0;
			return;
		}
		if (errno != EINTR) {
			pair_error(d, "SEND", ret);
			return;
		}
		if (chance(2))
			break;
		while (pr.made == made && pr.sent[d] + len > pr.got[d] &&
		       chance(90))
			pair_recv_more(d);
		if (pr.made != made)
			return;		/* the pair was made again */
	}
	/* Abandoned: some prefix of it may still arrive, then the end. */
	pr.ending = 1;
}

/* Send whole buffers without reading until one blocks and is cut. */
static void pair_flood(int d)
{
	int i;

	for (i = 0; i < 256 && !pr.ending; i++)
		pair_send(d, bufsz);
}

static void op_pair(void)
{
	int d = (int)below(2);
	size_t len = 1 + below(chance(10) ? bufsz : 8192);
	struct syncdev_info info;

	if (pr.ending && chance(20)) {
		pair_make();
		return;
	}
	switch (below(10)) {
	case 0:
	case 1:
	case 2:
		if (pr.sent[d] - pr.got[d] > MAX_IN_FLIGHT)
			pair_recv(d);
		else
			pair_write(d, len);
		break;
	case 3:
	case 4:
		if (pr.sent[d] - pr.got[d] > MAX_IN_FLIGHT)
			pair_recv(d);
		else
			pair_send(d, len);
		break;
	case 5:
		if (chance(2))
			pair_flood(d);
		break;
	case 6:
		if (note("INFO", ioctl(pr.fd[d], SYNCDEV_IOC_INFO, &info)) == 0 &&
		    !pr.ending && !info.connected)
			anomaly("INFO: the pair is not connected");
		break;
	default:
		pair_recv(d);
	}
}


static int report(unsigned long long max_calls, double secs)
{
	int bits = (int)(sizeof(long) * 8);

	if (calls < max_calls)
		anomaly("stopped by the time limit after %llu of %llu calls",
			calls, max_calls);
	if (anomalies) {
		printf("FAIL fuzz (%d-bit) seed %llu: %llu anomalies in %llu calls\n",
		       bits, seed, anomalies, calls);
		return 1;
	}
	printf("PASS fuzz (%d-bit) seed %llu: %llu calls in %.1f s, %llu bytes through %llu pairs checked, %llu SENDs resumed after EINTR, %lu timer ticks, no anomaly\n",
	       bits, seed, calls, secs, pr.checked, pr.made, pr.resumed,
	       (unsigned long)ticks);
	return 0;
}

static void setup(void)
{
	struct sigaction sa;
	struct itimerval it = { { 0, 10000 }, { 0, 10000 } };
	struct syncdev_info info;
	int fd, i;

	page = (size_t)sysconf(_SC_PAGESIZE);
	fd = dt_open(SYNCDEV_MASTER_PATH, O_RDWR);
	if (ioctl(fd, SYNCDEV_IOC_INFO, &info)) {
		perror("SYNCDEV_IOC_INFO");
		exit(1);
	}
	close(fd);
	bufsz = (size_t)info.buf_size;
	scratch = mmap(NULL, (SCRATCH_PAGES + 1) * page,
		       PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (scratch == MAP_FAILED || bufsz > SCRATCH_PAGES * page * 64) {
		fprintf(stderr, "fuzz: load the module with a small buf_size (at most %zu)\n",
			SCRATCH_PAGES * page * 64);
		exit(2);
	}
	guard = scratch + SCRATCH_PAGES * page;
	mprotect(guard, page, PROT_NONE);
	for (i = 0; i < NSESS; i++)
		sess[i].fd = -1;
	pr.fd[0] = pr.fd[1] = -1;
	signal(SIGPIPE, SIG_IGN);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART: calls fail EINTR */
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	pair_make();
	setitimer(ITIMER_REAL, &it, NULL);
}

/* One random step. */
static void step(void)
{
	uint64_t r = below(100);

	if (r < 30)
		op_ioctl();
	else if (r < 40)
		op_mmap();
	else if (r < 46)
		op_vma();
	else if (r < 56)
		op_touch();
	else if (r < 62)
		op_rw();
	else if (r < 64)
		sess_close((int)below(NSESS));
	else
		op_pair();
}

static unsigned long long number(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);

	if (!*s || *end) {
		fprintf(stderr, "fuzz: not a number: %s\n", s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	unsigned long long max_calls = 100000, secs = 600;
	struct timespec t0, t1;
	int i;

	seed = (unsigned long long)time(NULL);
	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--seed"))
			seed = number(argv[i + 1]);
		else if (!strcmp(argv[i], "--calls"))
			max_calls = number(argv[i + 1]);
		else if (!strcmp(argv[i], "--seconds"))
			secs = number(argv[i + 1]);
		else
			break;
	}
	if (i < argc) {
		printf("usage: fuzz [--seed N] [--calls N] [--seconds N]\n\n"
		       "Random ioctl/mmap/read/write calls on the syncdev devices (module\n"
		       "loaded with a small buf_size, devices unused), checked against the\n"
		       "contract.  Stops after --calls calls (default 100000); reaching\n"
		       "--seconds first (default 600) is a failure.\n");
		return strcmp(argv[i], "--help") ? 2 : 0;
	}
	rng = seed * 0x9E3779B97F4A7C15ULL + 1;
	setup();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	t1 = t0;
	while (calls < max_calls && (unsigned long long)(t1.tv_sec - t0.tv_sec) < secs) {
		step();
		if (!(calls & 255))
			clock_gettime(CLOCK_MONOTONIC, &t1);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	return report(max_calls, (double)(t1.tv_sec - t0.tv_sec) +
			  (t1.tv_nsec - t0.tv_nsec) / 1e9);
}
