// SPDX-License-Identifier: GPL-2.0
/* One measured point of the block-size sweep (io.h: point_measure). */
#include "calibrate.h"
#include "dropcache.h"
#include "io.h"
#include "stats.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>

struct point_run {
	struct point_cfg *cfg;
	struct blockreader br;
};

/* Files restart at 0 so that every run reads the same (cached) bytes. */
static int start_run(struct point_run *pr)
{
	if (pr->cfg->stream)
		return 0;
	return blockreader_rewind(&pr->br);
}

static int point_work(void *ctx, uint64_t count, uint64_t *done)
{
	struct point_run *pr = ctx;

	if (start_run(pr))
		return -1;
	return blockreader_read(&pr->br, count, done);
}

/*
 * The cost of reading the clock twice, subtracted from every interval:
 * small next to a run of target_ns, but not zero for tiny targets.
 */
static uint64_t clock_overhead(void)
{
	static uint64_t cached;
	uint64_t best = UINT64_MAX, t0, t;
	int i;

	if (cached)
		return cached;
	for (i = 0; i < 1000; i++) {
		t0 = now_ns();
		t = now_ns() - t0;
		if (t < best)
			best = t;
	}
	cached = best ? best : 1;
	return cached;
}

static void stream_account(struct point_cfg *cfg, struct blockreader *br)
{
	cfg->stream_offset = br->offset;
	cfg->stream_xor = br->xor;
}

/* The timed runs: rate[], calls[] and secs[] of each; 0 or -1. */
static int timed_runs(struct point_run *pr, uint64_t count, struct point *pt,
		      double *rate, double *calls, double *secs)
{
	struct point_cfg *cfg = pr->cfg;
	uint64_t done, t0, ns, over = clock_overhead();
	unsigned int i;

	for (i = 0; i < cfg->reps; i++) {
		if (start_run(pr))
			return fail_errno("lseek");
		if (cfg->cold) {
			pt->drop_method = dropcache(cfg->fd, cfg->global_drop);
			if (pt->drop_method < 0)
				return fail_errno("cannot drop the page cache");
		}
		pr->br.calls = 0;
		t0 = now_ns();
		if (blockreader_read(&pr->br, count, &done))
			return fail_errno("read failed (block size %zu)",
					  pr->br.block);
		ns = now_ns() - t0;
		ns = ns > over ? ns - over : 1;
		pt->bytes = cfg->stream ? done * pr->br.block : pr->br.offset;
		secs[i] = (double)ns / 1e9;
		rate[i] = (double)pt->bytes / MIB / secs[i];
		calls[i] = (double)pr->br.calls / secs[i];
	}
	return 0;
}

/* Size the run by doubling (the warm-up): *count, or -1. */
static int size_run(struct point_run *pr, size_t block, uint64_t *count)
{
	struct point_cfg *cfg = pr->cfg;
	struct calibrate cal = {
		.work = point_work, .ctx = pr,
		.lo_ns = cfg->target_ns, .hi_ns = UINT64_MAX,
		.max_count = cfg->max_bytes / block ? cfg->max_bytes / block : 1,
	};
	struct calibrate_result res;

	if (calibrate(&cal, &res))
		return fail_errno("read failed (block size %zu)", block);
	if (cfg->stream && res.status == CALIBRATE_SHORT_INPUT)
		return fail("the stream ended after %llu bytes",
			    (unsigned long long)pr->br.offset);
	/* A file shorter than that: every run reads all of it. */
	*count = res.count;
	return 0;
}

int point_measure(struct point_cfg *cfg, size_t block, struct point *pt)
{
	struct point_run pr = { .cfg = cfg };
	double *rate = xcalloc(cfg->reps, sizeof(double));
	double *calls = xcalloc(cfg->reps, sizeof(double));
	double *secs = xcalloc(cfg->reps, sizeof(double));
	struct stats st;
	uint64_t count = 0;
	int rc;

	pt->block = block;
	pt->reps = cfg->reps;
	pt->drop_method = -1;
	rc = blockreader_init(&pr.br, cfg->fd, block, cfg->stream);
	pr.br.offset = cfg->stream_offset;
	pr.br.xor = cfg->stream_xor;
	if (!rc)
		rc = size_run(&pr, block, &count);
	if (!rc)
		rc = timed_runs(&pr, count, pt, rate, calls, secs);
	if (!rc && cfg->stream)
		stream_account(cfg, &pr.br);
	if (!rc) {
		stats_compute(rate, cfg->reps, &st);
		pt->mib_s[0] = st.median;
		pt->mib_s[1] = st.min;
		pt->mib_s[2] = st.max;
		stats_compute(calls, cfg->reps, &st);
		pt->calls_s = st.median;
		stats_compute(secs, cfg->reps, &st);
		pt->seconds = st.median;
	}
	blockreader_free(&pr.br);
	free(rate);
	free(calls);
	free(secs);
	return rc;
}

const char *point_flag(struct point_cfg *cfg, const struct point *pt)
{
	if (cfg->stream || pt->seconds * 1e9 >= (double)cfg->target_ns / 2)
		return "";
	cfg->short_runs++;
	return "short run";
}

int point_last(const struct point_cfg *cfg, uint64_t bs)
{
	return cfg->file_bytes && bs >= cfg->file_bytes;
}

void point_flag_note(struct report *r, const struct point_cfg *cfg)
{
	if (cfg->file_bytes)
		report_note(r, "file size", "%llu bytes: block sizes above "
			    "it are not measured (one read() returns the "
			    "whole file)", (unsigned long long)cfg->file_bytes);
	if (cfg->short_runs)
		report_note(r, "short runs", "%u rows flagged \"short run\": "
			    "the whole file was read in less than half the "
			    "target %.3g s, so the clock and the per-call cost "
			    "weigh in; use a file that takes --time to read",
			    cfg->short_runs, (double)cfg->target_ns / 1e9);
}
