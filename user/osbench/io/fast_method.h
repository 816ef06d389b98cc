/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How fast reads a regular file: three engines (fio's shape: one small
 * unit per I/O method behind one interface), a driver that runs one of
 * them over a byte range with several threads, and the choice between
 * them (docs/io.md, "What fast does, and why").
 *
 *	struct fast_file f;
 *	struct fast_choice c;
 *	uint32_t xor;
 *
 *	fast_file_init(&f, fd, size);
 *	if (fast_xor_file(&f, FAST_AUTO, &c, &xor) == 0)
 *		printf("XOR value: %08x\n", xor);	// c says which method
 *
 * Every byte of [0, size) is XORed exactly once, whichever engines the
 * choice tried on the way: the probes read the first slices of the file
 * and count them, the winner reads the rest.  size is the file's size
 * when it was opened; bytes appended later are not read, and a file that
 * shrinks under the reader is an error (EIO from read and direct; mmap
 * cannot notice before it faults, and SIGBUS then ends the process).
 */
#ifndef OSBENCH_FAST_METHOD_H
#define OSBENCH_FAST_METHOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum fast_method {
	FAST_AUTO,	/* measure, or the rule for files too small to */
	FAST_READ,	/* threads x pread() into cache-sized buffers */
	FAST_MMAP,	/* threads x mapped windows, MAP_POPULATE */
	FAST_DIRECT,	/* threads x O_DIRECT, several requests in flight */
	FAST_NMETHODS
};

/* "auto", "read", "mmap", "direct"; -1 for an unknown name. */
int fast_method_parse(const char *name);
const char *fast_method_name(enum fast_method m);

/* Threads of one phase, at most (fast --threads). */
#define FAST_MAX_THREADS 256

/* Everything an engine needs; set by fast_file_init(), tunable after. */
struct fast_file {
	int fd;			/* O_RDONLY, the caller's */
	char path[32];		/* /proc/self/fd/N: reopens this very file */
	uint64_t size;		/* bytes to XOR: the size at open */
	unsigned int threads;	/* at most, per phase */
	size_t block;		/* read: bytes per pread(), from the caches */
	size_t cold_block;	/* read: bytes per pread() of a cold file */
	size_t window;		/* mmap: bytes per mapping, a page multiple */
	size_t request;		/* direct: bytes per request */
	unsigned int depth;	/* direct: requests in flight per thread */
	int queue;		/* direct: enum readq_kind; open() resolves */
	size_t align;		/* direct: offset and length alignment */
	int dfd;		/* direct: the O_DIRECT descriptor, or -1 */
	bool cold;		/* mostly not in the page cache: prefetch */
	uint64_t end;		/* the running phase's end: no hint past it */
	unsigned int ran;	/* threads the last phase ran */
	/*
	 * A probe's time limit (now_ns(); 0: none): past it, the phase
	 * takes no more chunks and an engine may stop inside one, and the
	 * phase says what it left unread (struct fast_left).
	 */
	uint64_t deadline;
	/*
	 * Each engine's per-thread state (buffers, descriptors), by thread
	 * number, kept from one phase to the next: the probes and the rest
	 * are separate phases, and new buffers cost a page fault per page
	 * each time (about 10 us each under bhyve, docs/io.md).
	 */
	void *ts[FAST_NMETHODS][FAST_MAX_THREADS];
	const struct fast_engine *ts_engine[FAST_NMETHODS];	/* their stop */
};

/* One I/O method.  Every hook returns 0, or -1 with errno. */
struct fast_engine {
	const char *name;
	enum fast_method method;
	/* File-wide set-up (the O_DIRECT descriptor); NULL: none. */
	int (*open)(struct fast_file *f);
	void (*close)(struct fast_file *f);
	/*
	 * Bytes a thread takes at a time from a phase of len bytes: a page
	 * multiple (direct: of f->align).
	 */
	size_t (*chunk)(const struct fast_file *f, uint64_t len);
	/*
	 * Per-thread state (buffers, descriptors), made ready to use (its
	 * pages touched) so that no phase pays for it; NULL with errno.
	 */
	void *(*thread_start)(struct fast_file *f);
	/*
	 * XOR len bytes at off into *xor; len == 0 never happens.  *done is
	 * len on entry: an engine that stops early because f->deadline has
	 * passed sets it to the bytes XORed, a multiple of FAST_ALIGN, after
	 * at least one block.
	 */
	int (*xor_chunk)(void *ts, struct fast_file *f, uint64_t off,
			 size_t len, uint32_t *xor, size_t *done);
	void (*thread_stop)(void *ts);
};

extern const struct fast_engine fast_engine_read;
extern const struct fast_engine fast_engine_mmap;
extern const struct fast_engine fast_engine_direct;
const struct fast_engine *fast_engine(enum fast_method m);

/*
 * pread() exactly len bytes at off, retrying short reads and EINTR; end
 * of file first is EIO (the file shrank).  0 or -1 with errno.
 */
int fast_pread_full(int fd, void *buf, size_t len, uint64_t off);

/* Phases start on this boundary, a multiple of every alignment. */
#define FAST_ALIGN (1u << 20)
/* len / threads rounded up to a multiple of unit: one share per thread. */
size_t fast_share(const struct fast_file *f, uint64_t len, size_t unit);

/* Defaults from this machine (threads: online CPUs; block: the caches). */
void fast_file_init(struct fast_file *f, int fd, uint64_t size);
/*
 * The pread() block: half of one core's L2 (the buffer is written by the
 * kernel's copy and read back by the XOR while it is still there; half
 * leaves room for the page-cache lines passing through), within 64 KiB ..
 * 512 KiB; 256 KiB when the caches are unknown.  Half, not a quarter, and
 * at most 512 KiB: both read a read-back GiB faster than their neighbours
 * under bhyve and under KVM (docs/io.md, "Design choices and the
 * alternatives measured", 1 and 15).
 */
size_t fast_block_for_l2(uint64_t l2);

/*
 * What a phase stopped at f->deadline left unread: at most a piece of
 * each thread's last chunk and the chunks nobody took.
 */
struct fast_left {
	unsigned int n;
	struct fast_gap {
		uint64_t start, end;
	} gap[FAST_MAX_THREADS + 1];
};

/* Bytes in the gaps of *left. */
uint64_t fast_left_bytes(const struct fast_left *left);

/*
 * Run e over [start, end) with up to f->threads threads taking chunks
 * from a shared counter; *xor gets the XOR of those bytes.  0, or -1
 * with errno from the first failure (the other threads stop early).
 * f->deadline must be 0.
 */
int fast_run_range(const struct fast_engine *e, struct fast_file *f,
		   uint64_t start, uint64_t end, uint32_t *xor);
/*
 * The same, adding the threads' CPU time (user and system) to *cpu_ns
 * (NULL: not wanted), and with f->deadline set, stopping at it: *xor is
 * then the XOR of the bytes read, and *left (required) gets the gaps
 * between them, in no order.
 */
int fast_run_timed(const struct fast_engine *e, struct fast_file *f,
		   uint64_t start, uint64_t end, uint32_t *xor,
		   uint64_t *cpu_ns, struct fast_left *left);
/*
 * What one engine of a race did: the bytes its threads XORed, their CPU
 * time, and how many threads ran it.
 */
struct fast_lap {
	uint64_t bytes, cpu_ns;
	unsigned int threads;
};

/*
 * A race: the ne engines e[] side by side over [start, end), thread i
 * running e[i % ne], every thread taking chunks of chunk bytes from one
 * counter, so that the faster engine reads more of the range and no
 * thread waits for a slower one.  Every byte is XORed once, into *xor;
 * lap[k] gets what e[k] did; each engine reads at least one chunk.
 * Needs at least ne threads, ne whole chunks and no f->deadline
 * (EINVAL); a thread that cannot be started fails it (EAGAIN).  0, or
 * -1 with errno.
 */
int fast_run_race(const struct fast_engine *const *e, unsigned int ne,
		  struct fast_file *f, uint64_t start, uint64_t end,
		  size_t chunk, uint32_t *xor, struct fast_lap *lap);
/*
 * Make e's per-thread states for every thread a phase can have, before
 * any phase is timed (a phase makes those it lacks itself).  0, or -1
 * with errno.
 */
int fast_prepare(const struct fast_engine *e, struct fast_file *f);
/* Stop every engine's kept per-thread state. */
void fast_release(struct fast_file *f);
/*
 * A thread's buffer (thread_start), its pages given now so that no phase
 * pays for them: page-aligned (as O_DIRECT needs), and from 2 MiB on in
 * huge pages where the kernel gives them (8 faults for 16 MiB instead of
 * 4096, about 10 us each under bhyve).  free() it; NULL with
 * errno.
 */
void *fast_buffer(size_t len);

/* Fraction of the file's pages in the page cache (sampled), 0..1. */
double fast_residency(int fd, uint64_t size);

/*
 * Where a run's time went (fast --timeline): each step's wall-clock time
 * and, for the phases that read, the threads' CPU time and the bytes.
 */
#define FAST_MAX_STEPS 12
struct fast_step {
	const char *what;	/* "residency", "open", "probe", "rest", ... */
	enum fast_method method;	/* FAST_AUTO: no engine */
	uint64_t bytes, wall_ns, cpu_ns;
	unsigned int threads;		/* that ran the step */
	bool beside;		/* ran at the same time as the step before */
};

/* What the choice did, for the report on stderr. */
struct fast_choice {
	enum fast_method method;	/* the engine that read the rest */
	bool forced;			/* --method, not auto */
	bool measured;			/* by probes, else by the rule */
	bool raced;			/* the probes were a race */
	double cached;			/* fast_residency(), -1: not asked */
	double probe_mib_s[FAST_NMETHODS];	/* best probe, 0: none */
	uint64_t probe_bytes;		/* read by the probes */
	/* A probe cut short (cold only): which, and how far it got. */
	enum fast_method cut;		/* FAST_AUTO: none */
	uint64_t cut_done, cut_slice;
	struct fast_left left;		/* what it left, for the winner */
	char fallback[96];		/* why a forced method was replaced */
	/* The engine as it ran and why: "read: 2 threads x 1024 KiB, ..." */
	char reason[160];
	unsigned int nsteps;		/* steps[] in the order they ran */
	struct fast_step steps[FAST_MAX_STEPS];
};

/*
 * The pure part of the choice, unit-tested: among the candidates
 * (mask bit 1 << method) with a rate > 0, the fastest; forced
 * (not FAST_AUTO) wins whatever the rates.  FAST_READ when nothing ran.
 */
enum fast_method fast_pick(const double rate[FAST_NMETHODS],
			   unsigned int mask, enum fast_method forced);
/*
 * Whether engine m, whose screen (the first, short round of probes) ran
 * at rate where the best screen ran at top, sits the second round out:
 * under half of top it is slow, and its full slice would cost its slow
 * speed (mmap on a just-written file).  read never sits out: it is every
 * engine's fallback, and a single screen that lost its core for a moment
 * would make read sit out and mmap read the rest at a fraction of read's
 * speed (docs/io.md, "Design choices and the alternatives measured", 9).
 */
bool fast_sits_out(enum fast_method m, double rate, double top);

/*
 * The candidates auto measures for a file with this cached fraction:
 * read and mmap when mostly cached, read and direct when mostly not.
 * Which cold reader wins depends on the storage and on what caches it
 * below this system, and changed within the hour on an Intel Xeon under KVM
 * (docs/io.md), so it is measured, not ruled.
 */
unsigned int fast_candidates(double cached);

/*
 * The method for a file too small to measure (a few MiB: any method reads
 * it in milliseconds, and a probe would be mostly start-up): read().
 */
enum fast_method fast_rule(double cached, uint64_t size);

/* The whole file with method m (FAST_AUTO: choose); 0 or -1 with errno. */
int fast_xor_file(struct fast_file *f, enum fast_method m,
		  struct fast_choice *c, uint32_t *xor);
/* "read, threads: 2, block: 256 KiB; auto: ..." into buf. */
void fast_choice_describe(const struct fast_file *f,
			  const struct fast_choice *c, char *buf, size_t len);

/*
 * c->reason: the engine that read the rest, its threads and unit, and
 * why: "race 1.30x mmap" or "trial 1.30x mmap" (its probe rate over
 * the best other candidate's, raced side by side or probed in turn),
 * "the only candidate left" (the others refused the file), "forced", or
 * "rule" (too small to measure).
 */
void fast_choice_reason(const struct fast_file *f, struct fast_choice *c);

/*
 * One line per step of c's timeline into buf: wall and CPU ms, MiB/s by
 * each, and the threads kept busy (CPU over wall); then c->reason.
 */
void fast_timeline_describe(const struct fast_choice *c, char *buf,
			    size_t len);

#endif
