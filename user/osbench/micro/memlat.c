// SPDX-License-Identifier: GPL-2.0
/*
 * osbench memlat: memory latency against working-set size, and the cache
 * levels found in that curve.
 *
 * Each working set is a ring of pointers, one per 64-byte cache line, in
 * a random cyclic order (Sattolo's shuffle): every load's address comes
 * from the previous load, so loads cannot overlap, and the order defeats
 * the hardware prefetchers that a stride would train.  The time per load
 * is the load-to-use latency of wherever the working set fits.  The loop
 * counter runs in parallel with the chain of loads, so no loop overhead
 * is subtracted.  The buffer asks for transparent huge pages so the curve
 * shows caches more than TLB misses (noted in the output).
 */
#include "cachedetect.h"
#include "micro.h"
#include "sysinfo.h"
#include "timing.h"
#include "util.h"
#include "plot.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define LINE 64

struct ring {
	char *buf;
	uint32_t *order;	/* scratch: the permutation of lines */
	void **start;
};

/* Link the first `size` bytes of buf into one random cycle of lines. */
static void ring_build(struct ring *r, size_t size, uint64_t *seed)
{
	size_t lines = size / LINE, i, j;
	uint32_t t;

	for (i = 0; i < lines; i++)
		r->order[i] = (uint32_t)i;
	/* Sattolo: j < i, never i itself, gives a single cycle. */
	for (i = lines - 1; i > 0; i--) {
		*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
		j = (size_t)((*seed >> 33) % i);
		t = r->order[i];
		r->order[i] = r->order[j];
		r->order[j] = t;
	}
	for (i = 0; i < lines; i++)
		*(void **)(r->buf + (size_t)r->order[i] * LINE) =
			r->buf + (size_t)r->order[(i + 1) % lines] * LINE;
	r->start = (void **)(r->buf + (size_t)r->order[0] * LINE);
}

static int chase(void *arg, uint64_t n)
{
	struct ring *r = arg;
	void **p = r->start;

	/* Eight dependent loads per iteration (ops_per_iter = 8). */
	while (n--) {
		p = *p; p = *p; p = *p; p = *p;
		p = *p; p = *p; p = *p; p = *p;
	}
	keep(p);
	r->start = p;
	return 0;
}

static void human(char *buf, size_t len, double bytes)
{
	const char *u[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int i = 0;

	while (bytes >= 1024 && i < 4) {
		bytes /= 1024;
		i++;
	}
	snprintf(buf, len, "%.4g %s", bytes, u[i]);
}

static uint64_t default_max(const struct benchopt *o)
{
	uint64_t llc = sysinfo_cache_size(0), max = 4 * llc;
	uint64_t ram = sysinfo_ram();

	if (max < 256ull << 20)
		max = 256ull << 20;
	if (ram && max > ram / 4)
		max = ram / 4;
	return benchopt_pick(o, max, 256ull << 20, 1ull << 20);
}

/* The sizes of the data and unified caches sysfs lists, level order. */
static int sysfs_levels(uint64_t *size, int *level, int max)
{
	struct cache_info c[16];
	int i, k = 0, n = sysinfo_caches(c, 16);

	for (i = 0; i < n && k < max; i++) {
		if (!strcmp(c[i].type, "Instruction"))
			continue;
		size[k] = c[i].size;
		level[k++] = c[i].level;
	}
	return k;
}

/*
 * One detected level against sysfs's: agrees when the plateau ends
 * within 2x of the cache's size.  Returns 1 when it disagrees.
 */
static int note_level(struct report *r, int i, const struct cache_level *lv,
		      uint64_t want, int wlevel)
{
	char key[32], got[32], ws[32];
	double ratio = lv->size / (double)want;
	int bad = ratio > 2 || ratio < 0.5;

	human(got, sizeof(got), lv->size);
	human(ws, sizeof(ws), (double)want);
	snprintf(key, sizeof(key), "level_%d", i + 1);
	report_note(r, key, "up to %s at %.3g ns (sysfs L%d: %s; %s)", got,
		    lv->latency, wlevel, ws, bad ? "disagrees: more than 2x "
		    "apart" : "agrees");
	return bad;
}

/*
 * The levels of the curve, each checked against sysfs; a plateau beyond
 * the levels sysfs lists is said to be no cache level and not recorded.
 */
static void note_detected(const struct ctx *ctx, struct report *r,
			  const struct cache_level *lv, int nlv, double beyond)
{
	uint64_t size[8];
	int level[8], ns = sysfs_levels(size, level, 8), i, bad = 0;
	char key[32], got[32];

	for (i = 0; i < nlv; i++) {
		if (i >= ns) {
			human(got, sizeof(got), lv[i].size);
			snprintf(key, sizeof(key), "level_%d", i + 1);
			report_note(r, key, "a plateau up to %s at %.3g ns, "
				    "beyond the %d levels sysfs lists: not a "
				    "cache level (TLB reach or noise), not "
				    "reported as one", got, lv[i].latency, ns);
			bad++;
			continue;
		}
		bad += note_level(r, i, &lv[i], size[i], level[i]);
		if (FIG_MEM_L1 + i <= FIG_MEM_L4)
			ctx_figure(ctx, FIG_MEM_L1 + i, lv[i].latency, "ns");
	}
	report_note(r, "beyond_caches", "%.3g ns", beyond);
	ctx_figure(ctx, FIG_MEM_MAIN, beyond, "ns");
	if (nlv == 0)
		report_note(r, "levels", "no plateau found in the curve");
	else if (ns == 0)
		report_note(r, "levels_check", "sysfs lists no caches");
	else
		report_note(r, "levels_check", bad ? "%d of %d detected "
			    "levels disagree with sysfs" : "all %d detected "
			    "levels agree with sysfs", bad ? bad : nlv, nlv);
}

/* The curve with the cache sizes sysfs reports marked on it. */
static int plot(const char *out, const double *x, const double *y, size_t n)
{
	struct cache_info c[16];
	char label[32];
	int i, nc = sysinfo_caches(c, 16);
	struct plot *p = plot_new("Memory latency (random pointer chase)",
				  "working set", "ns per load",
				  PLOT_LOGX | PLOT_LOGY);
	size_t s = plot_series(p, "latency (median)"), k;

	for (k = 0; k < n; k++)
		plot_point(p, s, x[k], y[k]);
	for (i = 0; i < nc; i++) {
		if (!strcmp(c[i].type, "Instruction"))
			continue;
		snprintf(label, sizeof(label), "L%d (sysfs)", c[i].level);
		plot_mark(p, (double)c[i].size, label);
	}
	return plot_write(p, out) < 0 ? -1 : 0;
}

struct memlat_opts {
	uint64_t min, max;	/* max 0: the default */
};

static const struct opt memlat_options[] = {
	{ .name = "min", .kind = OPT_SIZE, .arg = "SIZE", .min = 2 * LINE,
	  .def = "4K", .off = offsetof(struct memlat_opts, min),
	  .help = "smallest working set" },
	{ .name = "max", .kind = OPT_SIZE, .arg = "SIZE", .min = 2 * LINE,
	  .off = offsetof(struct memlat_opts, max),
	  .help = "largest working set (default 4x the last-level\n"
		  "cache, at least 256M)" },
	{ 0 },
};

/* The measured curve: latency ys[i] at working set xs[i]. */
struct curve {
	double *xs, *ys;
	size_t n;
};

/* Two sizes per octave from min to max; 0, or -1 when one failed. */
static int memlat_points(const struct ctx *c, const struct measure *m,
			 struct ring *ring, uint64_t min, uint64_t max,
			 struct report *r, struct curve *cv)
{
	struct measure_result res;
	uint64_t seed = 42, size;
	size_t k;

	for (size = min; size <= max; size *= 2) {
		uint64_t pts[2] = { size, size + size / 2 };

		for (k = 0; k < 2 && pts[k] <= max; k++) {
			mb_progress(&c->o, "%llu KiB",
				    (unsigned long long)pts[k] >> 10);
			ring_build(ring, pts[k], &seed);
			if (measure_run(m, chase, ring, &res))
				return -1;
			report_num(r, (double)pts[k]);
			measure_cells(r, &res.st, 1);
			report_str(r, "ns");
			report_num(r, res.st.median * tsc_ghz());
			cv->xs[cv->n] = (double)pts[k];
			cv->ys[cv->n++] = res.st.median;
			measure_free(&res);
		}
	}
	return 0;
}

/* The notes of the finished curve, then the table; the exit code. */
static int memlat_end(const struct ctx *c, struct report *r,
		      const struct curve *cv)
{
	struct cache_level lv[8];
	double beyond = 0;
	char thp[128];
	int nlv = cache_detect(cv->xs, cv->ys, cv->n, 0.3, lv, 8, &beyond);
	int rc;

	note_detected(c, r, lv, nlv < 0 ? 0 : nlv, beyond);
	sysinfo_read("/sys/kernel/mm/transparent_hugepage/enabled", thp,
		     sizeof(thp));
	report_note(r, "pages", "MADV_HUGEPAGE asked; THP setting: %s",
		    thp[0] ? thp : "unknown");
	rc = report_end(r) ? EXIT_FAIL : EXIT_OK;
	if (c->o.plot && plot(c->o.plot, cv->xs, cv->ys, cv->n))
		rc = EXIT_FAIL;
	return rc;
}

static struct report *memlat_table(const struct ctx *c, struct measure *m)
{
	struct report *r;

	benchopt_measure(&c->o, m);
	m->ops_per_iter = 8;
	r = mb_report_new(c, "memlat", m);
	report_column(r, "size_bytes", NULL);
	measure_columns(r);
	report_column(r, "unit", NULL);
	report_column(r, "cycles", NULL);
	return r;
}

static const char usage[] =
	"usage: osbench memlat [--min SIZE] [--max SIZE] [options]\n\n"
	"Load-to-use latency of a random pointer chase for working sets from\n"
	"--min (4K) to --max (default: 4x the last-level cache, at least\n"
	"256M), two sizes per octave, in ns and TSC cycles per load.  The\n"
	"cache levels are detected from the curve and compared with sysfs.\n";

static int memlat_run(const struct ctx *c, const void *opts)
{
	const struct memlat_opts *mo = opts;
	uint64_t min = mo->min, max = mo->max ? mo->max : default_max(&c->o);
	struct curve cv = { 0 };
	struct measure m;
	struct report *r;
	struct ring ring;
	size_t cap = 0;
	int rc;

	if (max < min || max / LINE > UINT32_MAX) {
		msg(max < min ? "--max is below --min" : "--max too large");
		return EXIT_USAGE;
	}
	ring.buf = mmap(NULL, max, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ring.buf == MAP_FAILED) {
		msg_errno("mmap %llu bytes", (unsigned long long)max);
		return EXIT_FAIL;
	}
	madvise(ring.buf, max, MADV_HUGEPAGE);
	ring.order = xcalloc(max / LINE, sizeof(*ring.order));
	for (uint64_t size = min; size <= max; size *= 2)
		cap += 2;
	cv.xs = xcalloc(cap, sizeof(*cv.xs));
	cv.ys = xcalloc(cap, sizeof(*cv.ys));
	r = memlat_table(c, &m);
	if (memlat_points(c, &m, &ring, min, max, r, &cv)) {
		report_free(r);
		rc = EXIT_FAIL;
	} else {
		rc = memlat_end(c, r, &cv);
	}
	munmap(ring.buf, max);
	free(ring.order);
	free(cv.xs);
	free(cv.ys);
	return rc;
}

OSBENCH_COMMAND(memlat, "memlat", CMD_TABLE | CMD_PLOT | CMD_ALL,
		"memory latency by working-set size, cache levels",
		COMMAND_OPTIONS(memlat_options, struct memlat_opts));
