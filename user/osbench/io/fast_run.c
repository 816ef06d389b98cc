// SPDX-License-Identifier: GPL-2.0
/*
 * The driver every fast engine runs under: threads take chunks of a byte
 * range from one shared counter until it is used up.  A counter rather
 * than one fixed share per thread: on a shared machine a thread whose
 * core is busy then takes fewer chunks instead of making everyone wait
 * for its share.  Threads are not pinned (docs/io.md measured it).
 */
#include "fast_method.h"
#include "util.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <stdint.h>
#include <time.h>
#include <stdatomic.h>

struct phase {
	/* Thread i runs e[i % ne] (a race: fast_run_race), else e[0]. */
	const struct fast_engine *const *e;
	unsigned int ne;
	struct fast_file *f;
	uint64_t start, end;
	size_t chunk;
	atomic_uint_fast64_t next;	/* index of the next chunk */
	atomic_int failed;
	atomic_bool stopped;		/* f->deadline passed */
	int err;			/* errno of the first failure */
};

struct runner {
	struct phase *p;
	unsigned int index;	/* the thread's number: its kept state */
	pthread_t tid;
	uint32_t xor;
	uint64_t cpu_ns;	/* the thread's CPU time in the phase */
	uint64_t bytes;		/* XORed in the phase */
	struct fast_gap cut;	/* what its last chunk left unread */
};

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void phase_fail(struct phase *p, int err)
{
	if (!atomic_exchange(&p->failed, 1))
		p->err = err ? err : EIO;
}

/* Take chunks from p's counter and XOR them with e until none is left. */
static void runner_loop(struct runner *r, const struct fast_engine *e,
			void *ts)
{
	struct phase *p = r->p;
	bool reserved = p->ne > 1 && r->index < p->ne;
	uint64_t i, off;
	size_t len, done;

	/*
	 * Every chunk taken from the counter is read, all or (deadline) a
	 * part: so what the phase left is the parts' rest and the chunks
	 * from the counter's final value on.  In a race, chunk k is kept
	 * for thread k < ne, so that every engine reads at least one even
	 * where its thread starts late.
	 */
	while (!atomic_load(&p->failed) && !atomic_load(&p->stopped)) {
		if (p->f->deadline && now_ns() >= p->f->deadline) {
			atomic_store(&p->stopped, true);
			break;
		}
		i = reserved ? r->index : atomic_fetch_add(&p->next, 1);
		reserved = false;
		off = p->start + i * p->chunk;
		if (off >= p->end)
			break;
		len = p->end - off < p->chunk ? (size_t)(p->end - off) :
						 p->chunk;
		done = len;
		if (e->xor_chunk(ts, p->f, off, len, &r->xor, &done)) {
			phase_fail(p, errno);
			break;
		}
		r->bytes += done;
		if (done < len) {
			r->cut = (struct fast_gap){ off + done, off + len };
			atomic_store(&p->stopped, true);
			break;
		}
	}
}

static void *runner_main(void *arg)
{
	struct runner *r = arg;
	struct phase *p = r->p;
	const struct fast_engine *e = p->e[r->index % p->ne];
	void **ts = &p->f->ts[e->method][r->index];
	uint64_t cpu0 = thread_cpu_ns();

	if (!*ts)
		*ts = e->thread_start(p->f);
	if (!*ts) {
		phase_fail(p, errno);
		return NULL;
	}
	runner_loop(r, e, *ts);
	r->cpu_ns = thread_cpu_ns() - cpu0;
	return NULL;
}

/*
 * Start n - 1 threads and run the last share here (one thread costs no
 * start-up).  A thread that cannot be started is no error: the others
 * take its chunks.
 */
static void run_threads(struct phase *p, struct runner *r, unsigned int n)
{
	unsigned int i, started = 0;

	for (i = 0; i < n; i++)
		r[i] = (struct runner){ .p = p, .index = i };
	for (i = 0; i + 1 < n; i++) {
		if (pthread_create(&r[i].tid, NULL, runner_main, &r[i]))
			break;
		started++;
	}
	/* A race's thread that did not start leaves its kept chunk unread. */
	if (started + 1 < n && started < p->ne && p->ne > 1)
		phase_fail(p, EAGAIN);
	runner_main(&r[n - 1]);
	for (i = 0; i < started; i++)
		pthread_join(r[i].tid, NULL);
}

static unsigned int phase_threads(const struct fast_file *f)
{
	if (f->threads == 0)
		return 1;
	return f->threads < FAST_MAX_THREADS ? f->threads : FAST_MAX_THREADS;
}

int fast_prepare(const struct fast_engine *e, struct fast_file *f)
{
	unsigned int i, n = phase_threads(f);
	void **ts = f->ts[e->method];

	f->ts_engine[e->method] = e;
	for (i = 0; i < n; i++) {
		if (!ts[i])
			ts[i] = e->thread_start(f);
		if (!ts[i])
			return -1;
	}
	return 0;
}

void fast_release(struct fast_file *f)
{
	unsigned int i;
	int m;

	for (m = FAST_READ; m < FAST_NMETHODS; m++)
		for (i = 0; i < FAST_MAX_THREADS; i++)
			if (f->ts[m][i]) {
				f->ts_engine[m]->thread_stop(f->ts[m][i]);
				f->ts[m][i] = NULL;
			}
}

/* Buffers this large get huge pages, where the kernel gives them. */
#define HUGE_PAGE (2u << 20)

/* Give len bytes of a new buffer their pages now. */
static void touch(void *buf, size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t i;

	/* One call for all pages; before Linux 5.14, a write per page. */
	if (madvise(buf, len, MADV_POPULATE_WRITE) == 0)
		return;
	for (i = 0; i < len; i += (size_t)(page > 0 ? page : 4096))
		((volatile unsigned char *)buf)[i] = 0;
}

void *fast_buffer(size_t len)
{
	size_t align = len >= HUGE_PAGE ? HUGE_PAGE : 4096;
	void *p;

	if (posix_memalign(&p, align, len)) {
		errno = ENOMEM;
		return NULL;
	}
	if (len >= HUGE_PAGE)
		madvise(p, len, MADV_HUGEPAGE);	/* a hint: may do nothing */
	touch(p, len);
	return p;
}

size_t fast_share(const struct fast_file *f, uint64_t len, size_t unit)
{
	uint64_t share = (len + f->threads - 1) / (f->threads ? f->threads : 1);

	share = (share + unit - 1) / unit * unit;
	return share < SIZE_MAX ? (size_t)share : SIZE_MAX / unit * unit;
}

uint64_t fast_left_bytes(const struct fast_left *left)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < left->n; i++)
		sum += left->gap[i].end - left->gap[i].start;
	return sum;
}

static void left_add(struct fast_left *left, uint64_t start, uint64_t end)
{
	if (start < end)
		left->gap[left->n++] = (struct fast_gap){ start, end };
}

int fast_run_range(const struct fast_engine *e, struct fast_file *f,
		   uint64_t start, uint64_t end, uint32_t *xor)
{
	return fast_run_timed(e, f, start, end, xor, NULL, NULL);
}

/* Run p with n threads into r; 0, or -1 with errno. */
static int run_phase(struct phase *p, struct runner *r, unsigned int n)
{
	p->f->end = p->end;
	p->f->ran = n;
	run_threads(p, r, n);
	if (p->failed) {
		errno = p->err;
		return -1;
	}
	return 0;
}

int fast_run_timed(const struct fast_engine *e, struct fast_file *f,
		   uint64_t start, uint64_t end, uint32_t *xor,
		   uint64_t *cpu_ns, struct fast_left *left)
{
	struct runner r[FAST_MAX_THREADS];
	struct phase p = { .e = &e, .ne = 1, .f = f, .start = start,
			   .end = end };
	uint64_t chunks, taken;
	unsigned int n, i;

	*xor = 0;
	if (left)
		left->n = 0;
	if (f->deadline && !left) {
		errno = EINVAL;
		return -1;
	}
	if (start >= end)
		return 0;
	p.chunk = e->chunk(f, end - start);
	chunks = (end - start + p.chunk - 1) / p.chunk;
	n = phase_threads(f);
	if (n > chunks)
		n = (unsigned int)chunks;
	f->ts_engine[e->method] = e;
	if (run_phase(&p, r, n))
		return -1;
	for (i = 0; i < n; i++) {
		*xor ^= r[i].xor;
		if (cpu_ns)
			*cpu_ns += r[i].cpu_ns;
		if (left)
			left_add(left, r[i].cut.start, r[i].cut.end);
	}
	if (left && p.stopped) {
		taken = atomic_load(&p.next);
		left_add(left, taken < chunks ? start + taken * p.chunk : end,
			 end);
	}
	return 0;
}

int fast_run_race(const struct fast_engine *const *e, unsigned int ne,
		  struct fast_file *f, uint64_t start, uint64_t end,
		  size_t chunk, uint32_t *xor, struct fast_lap *lap)
{
	struct runner r[FAST_MAX_THREADS];
	struct phase p = { .e = e, .ne = ne, .f = f, .start = start,
			   .end = end, .chunk = chunk, .next = ne };
	unsigned int n = phase_threads(f), i;

	*xor = 0;
	memset(lap, 0, ne * sizeof(*lap));
	if (ne == 0 || n < ne || chunk == 0 || f->deadline ||
	    (end - start) / chunk < ne) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < ne; i++)
		f->ts_engine[e[i]->method] = e[i];
	if (run_phase(&p, r, n))
		return -1;
	for (i = 0; i < n; i++) {
		*xor ^= r[i].xor;
		lap[i % ne].bytes += r[i].bytes;
		lap[i % ne].cpu_ns += r[i].cpu_ns;
		lap[i % ne].threads++;
	}
	return 0;
}
