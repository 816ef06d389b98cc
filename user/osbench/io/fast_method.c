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
	if (b > (1u << 20))
		b = 1u << 20;
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
