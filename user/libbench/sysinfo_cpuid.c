// SPDX-License-Identifier: GPL-2.0
/*
 * The caches from cpuid, for machines whose sysfs has no cache directory
 * (some hypervisors, bhyve among them, hide it): the deterministic cache
 * leaves (Intel 4, AMD 0x8000001D) when the CPU has them, else AMD's
 * older 0x80000005/0x80000006, which give L1d, L2 and L3 sizes.
 */
#include "sysinfo.h"

#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static void set(struct cache_info *c, int level, const char *type,
		uint64_t size, unsigned int line, unsigned int ways,
		unsigned int sharing)
{
	memset(c, 0, sizeof(*c));
	c->level = level;
	snprintf(c->type, sizeof(c->type), "%s", type);
	c->size = size;
	c->line = line;
	c->ways = ways;
	if (sharing)
		snprintf(c->shared, sizeof(c->shared),
			 "%u threads (cpuid)", sharing);
	else
		snprintf(c->shared, sizeof(c->shared), "unknown (cpuid)");
}

/* Leaf 4 or 0x8000001D: one subleaf per cache, type 0 ends the list. */
static int deterministic(unsigned int leaf, struct cache_info *out, int max)
{
	static const char *const types[] = { "", "Data", "Instruction",
					     "Unified" };
	unsigned int a, b, c, d, i, type, line, parts, ways;
	int n = 0;

	/* unsigned in GCC's cpuid.h, int in clang's */
	if ((unsigned int)__get_cpuid_max(leaf & 0x80000000u, NULL) < leaf)
		return 0;
	for (i = 0; n < max && i < 16; i++) {
		__cpuid_count(leaf, i, a, b, c, d);
		type = a & 31;
		if (type == 0 || type > 3)
			break;
		line = (b & 0xfff) + 1;
		parts = ((b >> 12) & 0x3ff) + 1;
		ways = (b >> 22) + 1;
		set(&out[n++], (int)((a >> 5) & 7), types[type],
		    (uint64_t)ways * parts * line * ((uint64_t)c + 1), line,
		    ways, ((a >> 14) & 0xfff) + 1);
	}
	return n;
}

/* Leaf 0x80000006's associativity code; 0 for unknown or fully. */
static unsigned int ways_of(unsigned int code)
{
	static const unsigned int ways[16] = { 0, 1, 2, 3, 4, 6, 8, 0, 16,
					       0, 32, 48, 64, 96, 128, 0 };

	return ways[code & 15];
}

/* AMD's legacy leaves: sizes and lines, associativity as a code. */
static int legacy(struct cache_info *out, int max)
{
	unsigned int a, b, c, d;
	int n = 0;

	if ((unsigned int)__get_cpuid_max(0x80000000u, NULL) < 0x80000006u)
		return 0;
	__cpuid(0x80000005u, a, b, c, d);
	if (n < max && (c >> 24))
		set(&out[n++], 1, "Data", (uint64_t)(c >> 24) << 10, c & 0xff,
		    (c >> 16) & 0xff, 0);
	__cpuid(0x80000006u, a, b, c, d);
	if (n < max && (c >> 16))
		set(&out[n++], 2, "Unified", (uint64_t)(c >> 16) << 10,
		    c & 0xff, ways_of(c >> 12), 0);
	if (n < max && (d >> 18))
		set(&out[n++], 3, "Unified", (uint64_t)(d >> 18) << 19,
		    d & 0xff, ways_of(d >> 12), 0);
	return n;
}

int sysinfo_caches_cpuid(struct cache_info *out, int max)
{
	unsigned int a, b, c, d;
	int n = deterministic(4, out, max);

	if (n)
		return n;
	if (__get_cpuid(0x80000001u, &a, &b, &c, &d) && (c & (1u << 22)))
		n = deterministic(0x8000001du, out, max);
	return n ? n : legacy(out, max);
}
#else
int sysinfo_caches_cpuid(struct cache_info *out, int max)
{
	(void)out;
	(void)max;
	return 0;
}
#endif
