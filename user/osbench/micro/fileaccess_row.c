// SPDX-License-Identifier: GPL-2.0
/*
 * The rows of osbench fileaccess (fileaccess.h), local, remote and
 * streamed alike: their chunk sizes, their plot lines, the report's
 * headline figures and the side-by-side table's record.
 */
#include "fileaccess.h"
#include "micro.h"
#include "plot.h"

#include <stdio.h>
#include <string.h>

size_t fa_nchunks(const struct fa_run *run)
{
	uint64_t chunk;
	size_t n = 0;

	for (chunk = run->minc; chunk <= run->maxc; chunk *= 4)
		n++;
	return n;
}

size_t fa_series(struct fa_run *run, const char *where, enum fop f)
{
	char name[300];

	if (!run->plot)
		return FA_NO_SERIES;
	snprintf(name, sizeof(name), "%s %s", where, fop_name(f));
	return plot_series(run->plot, name);
}

/* The report's headline figures: 4 KiB writes and random reads, 64 KiB
 * sequential reads, of the first directory and of the remote one. */
static void fa_figure(struct fa_run *run, const char *where, enum fop f,
		      uint64_t chunk, const struct stats *st)
{
	static const enum figure figs[F_NOPS] = {
		FIG_FA_SYNC_4K, FIG_FA_SEQ_64K, FIG_FA_RAND_4K,
	};
	int remote = run->remote && !strcmp(where, run->remote);

	if (!st || !run->ctx || chunk != (f == F_SEQ_READ ? 65536u : 4096u))
		return;
	if (!run->first)
		run->first = where;
	if (remote || !strcmp(where, run->first))
		ctx_figure_st(run->ctx, figs[f] + remote, st, "MiB/s");
}

void fa_row(struct fa_run *run, size_t series, const char *where,
	    const char *fs, enum fop f, uint64_t chunk,
	    const struct stats *st)
{
	fa_figure(run, where, f, chunk, st);
	report_str(run->r, where);
	report_str(run->r, fs);
	report_str(run->r, fop_name(f));
	report_num(run->r, (double)chunk);
	if (st)
		measure_cells(run->r, st, 1);
	else
		measure_cells_none(run->r);
	report_str(run->r, "MiB/s");
	if (series != FA_NO_SERIES && st)
		plot_point_err(run->plot, series, (double)chunk, st->median,
			       st->min, st->max);
	fa_side_record(run->side, run, where, fs, f, chunk, st);
}
