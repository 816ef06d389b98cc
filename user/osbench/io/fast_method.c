// SPDX-License-Identifier: GPL-2.0
/*
 * Which engine fast uses for a regular file, and the defaults each one
 * starts from on this machine.  The measurements behind every number are
 * in docs/io.md ("What fast does, and why").
 */
#include "fast_method.h"
#include "readq.h"
#include "sysinfo.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const char *const names[FAST_NMETHODS] = {
	[FAST_AUTO] = "auto",
	[FAST_READ] = "read",
	[FAST_MMAP] = "mmap",
	[FAST_DIRECT] = "direct",
};

int fast_method_parse(const char *name)
{
	int m;

	for (m = 0; m < FAST_NMETHODS; m++)
		if (!strcmp(name, names[m]))
			return m;
	return -1;
}

const char *fast_method_name(enum fast_method m)
{
	return (unsigned int)m < FAST_NMETHODS ? names[m] : "?";
}

size_t fast_block_for_l2(uint64_t l2)
{
	uint64_t b = l2 / 2;

	if (l2 == 0)
		return 256u << 10;
	if (b < (64u << 10))
		b = 64u << 10;
	if (b > (512u << 10))
		b = 512u << 10;
	return (size_t)(b & ~(uint64_t)4095);
}

void fast_file_init(struct fast_file *f, int fd, uint64_t size)
{
	*f = (struct fast_file){
		.fd = fd,
		.size = size,
		.threads = (unsigned int)sysinfo_cpus(),
		.block = fast_block_for_l2(sysinfo_cache_size(2)),
		.cold_block = 1u << 20,
		.window = 64u << 20,
		.request = 1u << 20,
		.depth = 16,
		.queue = READQ_ANY,
		.align = 4096,
		.dfd = -1,
	};
	/*
	 * Threads and O_DIRECT open the file again through its descriptor,
	 * not its name: the name may have been renamed or replaced since.
	 */
	snprintf(f->path, sizeof(f->path), "/proc/self/fd/%d", fd);
}

double fast_residency(int fd, uint64_t size)
{
	enum { SAMPLES = 256 };
	long page = sysconf(_SC_PAGESIZE);
	uint64_t pages = (size + (uint64_t)page - 1) / (uint64_t)page, i, n;
	unsigned char vec;
	unsigned int in = 0, seen = 0;
	void *p;

	if (size == 0)
		return 1;
	p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -1;
	n = pages < SAMPLES ? pages : SAMPLES;
	/* Evenly spread pages: one mincore() of one page each. */
	for (i = 0; i < n; i++) {
		uint64_t pg = i * pages / n;

		if (mincore((char *)p + pg * (uint64_t)page, 1, &vec))
			continue;
		seen++;
		in += vec & 1;
	}
	munmap(p, size);
	return seen ? (double)in / seen : -1;
}

enum fast_method fast_pick(const double rate[FAST_NMETHODS],
			   unsigned int mask, enum fast_method forced)
{
	enum fast_method best = FAST_READ;
	double top = 0;
	int m;

	if (forced != FAST_AUTO)
		return forced;
	for (m = FAST_READ; m < FAST_NMETHODS; m++) {
		if (!(mask & (1u << m)) || !(rate[m] > top))
			continue;
		top = rate[m];
		best = (enum fast_method)m;
	}
	return best;
}

bool fast_sits_out(enum fast_method m, double rate, double top)
{
	return m != FAST_READ && rate < top / 2;
}

unsigned int fast_candidates(double cached)
{
	if (cached >= 0.5)
		return 1u << FAST_READ | 1u << FAST_MMAP;
	return 1u << FAST_READ | 1u << FAST_DIRECT;
}

enum fast_method fast_rule(double cached, uint64_t size)
{
	(void)cached;
	(void)size;
	return FAST_READ;
}

/* "read: 2 threads x 1024 KiB": the engine in c->method as it ran. */
static size_t engine_shape(const struct fast_file *f,
			   const struct fast_choice *c, char *buf, size_t len)
{
	size_t block = f->cold ? f->cold_block : f->block;
	const char *m = fast_method_name(c->method);
	const char *s = f->threads == 1 ? "" : "s";

	if (c->method == FAST_MMAP)
		return (size_t)snprintf(buf, len, "%s: %u thread%s x %zu MiB windows",
					m, f->threads, s, f->window >> 20);
	if (c->method == FAST_DIRECT)
		return (size_t)snprintf(buf, len, "%s: %u thread%s x %u x %zu KiB in flight",
					m, f->threads, s, f->depth,
					f->request >> 10);
	return (size_t)snprintf(buf, len, "%s: %u thread%s x %zu KiB", m,
				f->threads, s, block >> 10);
}

void fast_choice_reason(const struct fast_file *f, struct fast_choice *c)
{
	size_t n = engine_shape(f, c, c->reason, sizeof(c->reason));
	size_t len = sizeof(c->reason);
	enum fast_method other = FAST_AUTO;
	double mine = c->probe_mib_s[c->method];
	int m;

	if (n >= len)
		return;
	if (c->forced || !c->measured || c->fallback[0]) {
		snprintf(c->reason + n, len - n, ", %s",
			 c->fallback[0] ? c->fallback : c->forced ? "forced" :
			 "rule (too small to measure)");
		return;
	}
	for (m = FAST_READ; m < FAST_NMETHODS; m++)
		if (m != (int)c->method && c->probe_mib_s[m] > 0 &&
		    (other == FAST_AUTO ||
		     c->probe_mib_s[m] > c->probe_mib_s[other]))
			other = (enum fast_method)m;
	if (other == FAST_AUTO || mine <= 0)
		snprintf(c->reason + n, len - n, ", the only candidate left");
	else
		snprintf(c->reason + n, len - n, ", %s %.2fx %s",
			 c->raced ? "race" : "trial", mine / c->probe_mib_s[other],
			 fast_method_name(other));
}
