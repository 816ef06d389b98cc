// SPDX-License-Identifier: GPL-2.0
/*
 * osbench report: run every experiment into a folder and write the
 * report a course hands in, as report.md and one self-contained
 * report.html: the machine, a summary of estimated against measured
 * figures with the basis of every estimate and the spread of every
 * measurement, the anomalies found, the methodology, and a section per
 * experiment with its table and plot (report_parts.h says which file does
 * what).  --render renders a folder again without measuring.
 */
#include "report_parts.h"
#include "util.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct report_opts {
	const char *out, *peer, *remote, *only;
	bool render, pair;
};

#define RO(field) offsetof(struct report_opts, field)
static const struct opt report_options[] = {
	{ .name = "out", .kind = OPT_STR, .arg = "DIR",
	  .def = "osbench-report", .off = RO(out),
	  .help = "where the report, the tables and plots go" },
	{ .name = "peer", .kind = OPT_STR, .arg = "IP[:PORT]", .off = RO(peer),
	  .help = "include the two-guest network figures against\n"
		  "\"osbench net --serve\" there" },
	{ .name = "remote", .kind = OPT_STR, .arg = "DIR", .off = RO(remote),
	  .help = "include local vs remote file access with DIR, a\n"
		  "network file system's directory (NFS)" },
	{ .name = "pair", .kind = OPT_FLAG, .off = RO(pair),
	  .help = "in the two-VM setup: --peer $SYNCDEV_PEER" },
	{ .name = "only", .kind = OPT_CALL, .arg = "LIST", .off = RO(only),
	  .parse = rep_only_parse,
	  .help = "run only these experiments (comma-separated names\n"
		  "of the sections: call,net,io,transfer...); the\n"
		  "others say they were not selected" },
	{ .name = "render", .kind = OPT_FLAG, .off = RO(render),
	  .help = "do not measure: render DIR's saved results again" },
	{ 0 },
};

static const char usage[] =
	"usage: osbench report [--out DIR] [--peer IP[:PORT] | --pair]\n"
	"                      [--remote DIR] [--only LIST] [options]\n"
	"       osbench report --render [--out DIR]\n\n"
	"Run every experiment into DIR (default osbench-report) and write\n"
	"DIR/report.md and DIR/report.html (one self-contained page, plots\n"
	"inline): the machine; a summary of each estimate (base hardware +\n"
	"software overhead, with its basis), the measured median with its\n"
	"minimum and the median's interval, and their ratio; the anomalies\n"
	"found; DIR/methodology.md; a section per experiment:\n"
	"micro-benchmarks, local vs remote file access, network (loopback,\n"
	"and the peer with --peer), the I/O experiments (run, run2, fast,\n"
	"sweep, cache on a scratch file in --dir) and the device transfers\n"
	"(when the syncdev module is loaded).  Every table is also\n"
	"DIR/NAME.csv (header and rows only) with its notes and units in\n"
	"DIR/NAME.meta.json; the figures are DIR/summary.csv.  It says where\n"
	"it writes before it starts.  It never drops the whole page cache:\n"
	"cold reads drop their scratch file's pages (posix_fadvise): cache\n"
	"before each cold run, fileaccess before each read sample, pagefault\n"
	"before its major faults.  An experiment that fails is reported and\n"
	"the others still run; the exit status is then 1.  --render writes\n"
	"the documents again from DIR's files.\n\n"
	"--only LIST runs the experiments named (machine always): those of\n"
	"\"osbench all\", micro-opt, io (all the I/O experiments) and transfer;\n"
	"the sections of the others say that they were not selected.\n\n"
	"With --peer (or --pair in the two-VM setup) the other guest runs\n"
	"\"osbench net --serve --count 1\" while the report measures.\n";

/* Where the results go and what the run does to the page cache. */
static void announce(const char *out)
{
	char cwd[4096];

	if (out[0] != '/' && getcwd(cwd, sizeof(cwd)))
		msg("writing into %s/%s (--out DIR)", cwd, out);
	else
		msg("writing into %s (--out DIR)", out);
	msg("the page cache: never dropped whole; cold reads drop only "
	    "their scratch file's pages (posix_fadvise DONTNEED): cache "
	    "before each cold run, fileaccess before each read sample, "
	    "pagefault before its major faults");
}

static int report_run(const struct ctx *c, const void *opts)
{
	const struct report_opts *a = opts;
	struct rep rep = { .dir = a->out, .only = a->only };
	const char *peer = a->peer;
	int rc = EXIT_OK;

	if (a->pair && !peer && !(peer = getenv("SYNCDEV_PEER"))) {
		msg("--pair: SYNCDEV_PEER is not set (not a two-VM guest?): "
		    "give --peer IP");
		return EXIT_USAGE;
	}
	if (a->render && (peer || a->remote || a->only)) {
		msg("--render uses the saved results: no --peer, --pair, "
		    "--remote or --only");
		return EXIT_USAGE;
	}
	snprintf(rep.peer, sizeof(rep.peer), "%s", peer ? peer : "");
	snprintf(rep.remote, sizeof(rep.remote), "%s",
		 a->remote ? a->remote : "");
	if (!a->render) {
		announce(a->out);
		rc = rep_measure(&rep, c);
		if (rep_save(&rep))
			return EXIT_FAIL;
	}
	/* Always from the folder: what --render shows is what was saved. */
	if (rep_load(&rep) || rep_render(&rep))
		return EXIT_FAIL;
	return rc;
}

OSBENCH_COMMAND(report, "report", CMD_TABLE | CMD_SCRATCH,
		"run everything, write the report (Markdown and HTML)",
		COMMAND_OPTIONS(report_options, struct report_opts));
