// SPDX-License-Identifier: GPL-2.0
/*
 * osbench micro-opt: the micro-benchmarks compiled with optimisation
 * (this program, CFLAGS: -O2 by default) and without (osbench-O0, the
 * same sources compiled with -O0, Makefile), side by side.  One copy of
 * the code, two builds: each experiment runs here, then at once in the
 * -O0 build (micro-opt --this-build, read back as CSV), so that the two
 * medians of a figure are measured a few seconds apart.  Per figure: both
 * medians, the interval of each median, and -O0 / -O2.
 */
#include "experiment.h"
#include "micro/micro.h"
#include "micro_opt.h"
#include "util.h"

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct mo_opts {
	const char *experiments;
	const char *o0;
	bool this_build;
};

static const char *const allowed[] = {
	"overhead", "call", "syscall", "spawn", "ctxsw", "memlat", "membw",
	"pagefault", NULL,
};

/* --experiments: names from allowed[], comma-separated. */
static int experiments_value(const char *what, const char *v, void *dst)
{
	const char *p = v;
	size_t n, i;

	do {
		n = strcspn(p, ",");
		for (i = 0; allowed[i]; i++)
			if (strlen(allowed[i]) == n && !strncmp(allowed[i], p, n))
				break;
		if (!allowed[i])
			return fail("%s: '%.*s' is not one of overhead, call, "
				    "syscall, spawn, ctxsw, memlat, membw, "
				    "pagefault", what, (int)n, p);
		p += n;
	} while (*p++);
	*(const char **)dst = v;
	return 0;
}

static const struct opt mo_options[] = {
	{ .name = "experiments", .kind = OPT_CALL, .arg = "LIST",
	  .off = offsetof(struct mo_opts, experiments),
	  .def = "overhead,call,syscall,spawn,ctxsw,memlat,membw,pagefault",
	  .parse = experiments_value,
	  .help = "the experiments to compare, comma-separated (default: "
		  "all eight)" },
	{ .name = "o0", .kind = OPT_STR, .arg = "PATH",
	  .off = offsetof(struct mo_opts, o0),
	  .help = "the -O0 build (default: osbench-O0 beside this program)" },
	{ .name = "this-build", .kind = OPT_FLAG,
	  .off = offsetof(struct mo_opts, this_build),
	  .help = "measure this program's build only, one median per\n"
		  "figure (micro-opt runs the -O0 build so)" },
	{ 0 },
};

static const char usage[] =
	"usage: osbench micro-opt [options]\n\n"
	"The micro-benchmarks (overhead, call, syscall, spawn, ctxsw, memlat,\n"
	"membw, pagefault) compiled with optimisation (this program: CFLAGS,\n"
	"-O2 by default) and with -O0 (osbench-O0, which make builds beside\n"
	"it from the same sources), side by side: per figure the median and\n"
	"the interval of the median of each build, and o0_over_o2, the -O0\n"
	"median over the -O2 one (above 1: a time grew; below 1: a rate in\n"
	"MiB/s fell).  Each experiment runs here, then at once in the -O0\n"
	"build, with the same --quick, --smoke, --reps and --dir.\n";

static int micro_opt_run(const struct ctx *c, const void *opts)
{
	const struct mo_opts *mo = opts;
	char *o0;
	int rc;

	if (mo->this_build)
		return mo_this_build(c, mo->experiments);
	if (!micro_optimised()) {
		msg("this program's micro-benchmarks were compiled without "
		    "optimisation: run micro-opt from the optimised build "
		    "(build/osbench)");
		return EXIT_FAIL;
	}
	o0 = mo->o0 ? xstrdup(mo->o0) : mo_beside_self("osbench-O0");
	if (!o0)
		return EXIT_FAIL;
	if (access(o0, X_OK)) {
		msg_errno("%s (make builds it beside osbench)", o0);
		free(o0);
		return EXIT_FAIL;
	}
	rc = mo_compare(c, mo->experiments, o0,
			mo->o0 ? mo->o0 : "osbench-O0 beside this program");
	free(o0);
	return rc;
}

OSBENCH_COMMAND(micro_opt, "micro-opt", CMD_TABLE | CMD_SCRATCH,
		"the micro-benchmarks at -O2 and at -O0, side by side",
		COMMAND_OPTIONS(mo_options, struct mo_opts));
