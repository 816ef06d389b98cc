// SPDX-License-Identifier: GPL-2.0
/* The plotting module: the exact script and data it writes, and plot_write. */
#include "check.h"
#include "plot.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Two series (one empty), a mark, quotes to escape, both log axes. */
static struct plot *tiny(void)
{
	struct plot *p = plot_new("it's a test", "size", "ns",
				  PLOT_LOGX | PLOT_LOGY);
	size_t a = plot_series(p, "warm"), b;

	b = plot_series(p, "empty");
	(void)b;
	plot_series(p, "cold");
	plot_point(p, a, 1, 2.5);
	plot_point(p, 2, 4, 0.125);
	plot_point(p, a, 2, 3);
	plot_mark(p, 32768, "L1 'd'");
	return p;
}

static char *render(int script)
{
	struct plot *p = tiny();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	rc = script ? plot_write_script(p, f, "o.svg", "o.svg.dat") :
		      plot_write_data(p, f);
	fclose(f);
	plot_free(p);
	return rc ? NULL : buf;
}

static void test_script(void)
{
	const char *want =
		"set terminal svg size 900,540 dynamic font 'sans,11'\n"
		"set output 'o.svg'\n"
		"set title 'it''s a test'\n"
		"set xlabel 'size'\n"
		"set ylabel 'ns'\n"
		"set grid\nset key top left\n"
		"set logscale x 2\nset format x '%.0b%BB'\n"
		"set logscale y\n"
		"set arrow from 32768, graph 0 to 32768, graph 1 nohead "
		"dashtype 2\n"
		"set label 'L1 ''d''' at 32768, graph 0.95 rotate by 90 right "
		"offset -1,0\n"
		"plot 'o.svg.dat' index 0 with linespoints title 'warm', "
		"'o.svg.dat' index 1 with linespoints title 'cold'\n";
	char *got = render(1);

	CHECK(got && !strcmp(got, want),
	      "plot script: terminal, quoted strings, log axes, mark, "
	      "one index per non-empty series");
	if (got && strcmp(got, want))
		printf("got:\n%s", got);
	free(got);
}

static void test_data(void)
{
	const char *want = "# warm\n1 2.5\n2 3\n\n\n# cold\n4 0.125\n\n\n";
	char *got = render(0);

	CHECK(got && !strcmp(got, want),
	      "plot data: one block per non-empty series, in order");
	free(got);
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && st.st_size > 0;
}

static void test_write(void)
{
	char dir[] = "/tmp/syncdev-test-plot-XXXXXX";
	char *out, *dat, *gp, *path = getenv("PATH");
	char *saved = xstrdup(path ? path : "");
	int rc;

	CHECK(plot_check_path("x.pdf") == -1, "plot_check_path refuses .pdf");
	CHECK(plot_check_path("x") == -1, "plot_check_path refuses no suffix");
	CHECK(plot_check_path("x.txt") == 0, "plot_check_path takes .txt");
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	out = xasprintf("%s/p.txt", dir);
	dat = xasprintf("%s.dat", out);
	gp = xasprintf("%s.gp", out);

	/* Without gnuplot on PATH: the files, and 1. */
	setenv("PATH", dir, 1);
	rc = plot_write(tiny(), out);
	setenv("PATH", saved, 1);
	CHECK(rc == 1 && exists(dat) && exists(gp) && !exists(out),
	      "plot_write without gnuplot writes .dat and .gp, returns 1 "
	      "(got %d)", rc);
	unlink(dat);
	unlink(gp);

	rc = plot_write(plot_new("t", "x", "y", 0), out);
	CHECK(rc == -1 && !exists(dat), "plot_write of no points fails");

	if (system("command -v gnuplot >/dev/null 2>&1") == 0) {
		rc = plot_write(tiny(), out);
		CHECK(rc == 0 && exists(out) && exists(dat) && exists(gp),
		      "plot_write with gnuplot draws the text plot");
	}
	unlink(out);
	unlink(dat);
	unlink(gp);
	rmdir(dir);
	free(out);
	free(dat);
	free(gp);
	free(saved);
}

int main(void)
{
	test_script();
	test_data();
	test_write();
	return check_done();
}
