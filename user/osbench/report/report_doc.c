// SPDX-License-Identifier: GPL-2.0
/*
 * report.md and report.html: one walk over the folder's results, written
 * twice through docout.h.  Sections: machine, summary, anomalies,
 * methodology, then every experiment (micro-benchmarks, local vs remote
 * file access, network, the I/O experiments, the device transfers), each
 * with its table and plot, or a sentence saying why it is not there.
 */
#include "report_parts.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A text file of the folder as a preformatted block; 0 or -1. */
static int text_file(struct doc *d, const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name), *buf = NULL;
	FILE *f = fopen(path, "r");
	size_t cap = 0;
	ssize_t n;

	free(path);
	if (!f)
		return -1;
	n = getdelim(&buf, &cap, '\0', f);
	fclose(f);
	doc_pre(d, n > 0 ? buf : "(empty)\n");
	free(buf);
	return 0;
}

/* A table, or the sentence the run left in NAME.skipped, or "not run". */
static void table_or_why(struct doc *d, const struct rep *r,
			 const char *name, const char *const *cols)
{
	char *file = xasprintf("%s.csv", name);
	char *why = xasprintf("%s.skipped", name);

	if (rep_csv_table(d, r->dir, file, cols) &&
	    text_file(d, r->dir, why))
		doc_para(d, "%s: not run (no %s in this folder).", name, file);
	free(file);
	free(why);
}

static void micro(struct doc *d, const struct rep *r)
{
	static const char *const names[] = {
		"overhead", "call", "syscall", "spawn", "ctxsw", "membw",
		"pagefault", "memlat",
	};
	size_t i;

	doc_heading(d, 2, "Micro-benchmarks");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		doc_heading(d, 3, names[i]);
		if (!strcmp(names[i], "memlat"))
			doc_plot(d, "memlat.svg", "Memory latency by working "
				 "set, cache sizes marked");
		table_or_why(d, r, names[i], NULL);
	}
	doc_heading(d, 3, "Compiler optimisation: -O2 against -O0");
	doc_para(d, "The same micro-benchmark code compiled twice (osbench "
		 "and osbench-O0), each figure's median and the interval of "
		 "the median per build, and -O0 / -O2.");
	table_or_why(d, r, "micro-opt", NULL);
}

static void files(struct doc *d, const struct rep *r)
{
	static const char *const cols[] = {
		"dir", "fs", "op", "chunk_bytes", "n", "median", "min", "max",
		"median_lo", "median_hi", "unit", NULL,
	};

	doc_heading(d, 2, "Local and remote file access");
	if (r->remote[0])
		doc_para(d, "Local: the first directory; remote: %s (%s). "
			 "MiB/s, medians; the full table follows.", r->remote,
			 r->remote_fs[0] ? r->remote_fs : "?");
	else
		doc_para(d, "No remote directory was given (--remote DIR): "
			 "the local directory only.");
	if (rep_fa_side(d, r) == 0)
		doc_plot(d, "fileaccess.svg", "File access by chunk size "
			 "(median, bars from the smallest to the largest "
			 "sample)");
	table_or_why(d, r, "fileaccess", cols);
}

static void network(struct doc *d, const struct rep *r)
{
	doc_heading(d, 2, "Network");
	doc_heading(d, 3, "Loopback");
	table_or_why(d, r, "net", NULL);
	doc_heading(d, 3, "To the peer");
	if (r->peer[0])
		table_or_why(d, r, "net-peer", NULL);
	else
		doc_para(d, "No peer was given (--peer ADDR): the two-guest "
			 "figures are not part of this report.");
}

static void io(struct doc *d, const struct rep *r)
{
	static const char *const text[] = { "run", "run2", "fast" };
	size_t i;

	doc_heading(d, 2, "I/O experiments");
	for (i = 0; i < 3; i++) {
		char *name = xasprintf("%s.txt", text[i]);

		doc_heading(d, 3, text[i]);
		if (text_file(d, r->dir, name)) {
			free(name);
			name = xasprintf("%s.skipped", text[i]);
			if (text_file(d, r->dir, name))
				doc_para(d, "%s: not run.", text[i]);
		}
		free(name);
	}
	doc_heading(d, 3, "sweep");
	doc_plot(d, "sweep.svg", "Read rate by block size");
	table_or_why(d, r, "sweep", NULL);
	doc_heading(d, 3, "cache");
	doc_plot(d, "cache.svg", "Warm and cold page cache by block size");
	table_or_why(d, r, "cache", NULL);
	doc_heading(d, 3, "syscall-rate");
	table_or_why(d, r, "syscall-rate", NULL);
	doc_heading(d, 3, "copy (against dd bs=512)");
	table_or_why(d, r, "copy", NULL);
	doc_heading(d, 2, "Device transfers");
	table_or_why(d, r, "transfer", NULL);
}

static void head(struct doc *d, const struct rep *r, const char *method)
{
	doc_begin(d, "Operating-system measurements");
	doc_para(d, "Produced by osbench report (%s mode). Methodology: %s.",
		 r->mode[0] ? r->mode : "?", method);
	doc_heading(d, 2, "Machine");
	table_or_why(d, r, "machine", NULL);
	doc_heading(d, 2, "Summary");
	doc_para(d, "Each estimate is base hardware + software overhead "
		 "(\"-\": not split that way); actual is the median of the "
		 "samples, beside it their minimum (lmbench's convention) and "
		 "the distribution-free interval of the median (order "
		 "statistics, its confidence >= 95%% from 6 samples on; with "
		 "fewer it is min..max at the confidence shown); the ratio is "
		 "actual / estimate.  Every estimate states its basis.");
	rep_summary(d, r);
	doc_heading(d, 2, "Anomalies");
	rep_flags(d, r);
}

static int render(const struct rep *r, enum doc_format fmt,
		  const char *method)
{
	char *path = xasprintf("%s/report.%s", r->dir,
			       fmt == DOC_HTML ? "html" : "md");
	struct doc d = { .fmt = fmt, .dir = r->dir };
	int rc;

	d.f = fopen(path, "w");
	if (!d.f) {
		msg_errno("create %s", path);
		free(path);
		return -1;
	}
	head(&d, r, method);
	micro(&d, r);
	files(&d, r);
	network(&d, r);
	io(&d, r);
	rc = doc_end(&d);
	if (fclose(d.f) || rc) {
		msg_errno("write %s", path);
		rc = -1;
	} else {
		msg("wrote %s", path);
	}
	free(path);
	return rc;
}

int rep_render(const struct rep *r)
{
	const char *method = rep_methodology(r->dir);
	int rc = render(r, DOC_MD, method);

	return render(r, DOC_HTML, method) || rc ? -1 : 0;
}
