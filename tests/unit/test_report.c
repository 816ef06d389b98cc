// SPDX-License-Identifier: GPL-2.0
/*
 * The report's building blocks on fixed inputs: reading a CSV table
 * back (quotes, notes, empty cells), Markdown and HTML output (tables,
 * escaping, lists, a plot as a data: URI or a link), the anomaly tests,
 * ping's reply lines, dmidecode's speed lines and error bars in plot
 * data.  No timing.
 */
#include "anomaly.h"
#include "check.h"
#include "csvtab.h"
#include "json.h"
#include "docout.h"
#include "memspeed.h"
#include "pingparse.h"
#include "plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char csv[] =
	"dir,op,median,note\n"
	"/tmp,sync-write,1.5,\"a, b\"\n"
	"/mnt/nfs,seq-read,,\"say \"\"hi\"\"\"\n"
	"\n"
	"x,y\n1,2\n";

/* The metadata report_meta_begin writes beside it. */
static const char meta[] =
	"{\"format_version\":1,\"tables\":[\n"
	"{\"title\":\"t\",\"notes\":{\"mode\":\"smoke\","
	"\"dir /tmp\":\"tmpfs: memory, not a disk\","
	"\"q\":\"say \\\"hi\\\" \\\\ \\u0009\"},\"columns\":[]},\n"
	"{\"title\":\"second\",\"notes\":{\"mode\":\"full\"}}]}\n";

static void test_csvtab(void)
{
	FILE *f = fmemopen((void *)csv, sizeof(csv) - 1, "r");
	struct csvtab *t = csvtab_read(f);

	fclose(f);
	CHECK(t && t->tab.ncols == 4 && t->tab.nrows == 2,
	      "csvtab: 4 columns, 2 rows (the first table only)");
	if (!t)
		return;
	CHECK(t->nnotes == 0, "csvtab: a plain CSV has no notes");
	CHECK(csvtab_meta_parse(t, meta) == 0 && t->nnotes == 3,
	      "csvtab: the first table's notes from the metadata");
	CHECK(!strcmp(csvtab_note(t, "mode"), "smoke"), "csvtab: a note");
	CHECK(!strcmp(csvtab_note(t, "dir /tmp"), "tmpfs: memory, not a disk"),
	      "csvtab: a note whose value has a colon");
	CHECK(!strcmp(csvtab_note(t, "q"), "say \"hi\" \\ \t"),
	      "csvtab: a note with JSON escapes");
	CHECK(csvtab_meta_parse(t, "{\"notes\":{\"a\":\"b") == -1 &&
	      csvtab_meta_parse(t, "[]") == -1,
	      "csvtab: truncated or foreign metadata refused");
	CHECK(!strcmp(csvtab_cell(t, 0, 3), "a, b"), "csvtab: quoted comma");
	CHECK(!strcmp(csvtab_cell(t, 1, 3), "say \"hi\""),
	      "csvtab: doubled quotes");
	CHECK(!strcmp(csvtab_cell(t, 1, csvtab_col(t, "median")), ""),
	      "csvtab: an empty cell");
	CHECK(csvtab_col(t, "nope") == -1 && !strcmp(csvtab_cell(t, 0, -1), ""),
	      "csvtab: a missing column");
	csvtab_free(t);
}

/* The metadata's format_version: first, a known one, or refused. */
static void test_meta_version(void)
{
	struct csvtab t = { 0 };

	CHECK(json_format_version(meta) == 1 &&
	      json_format_version(" { \"format_version\" : 7 }") == 7,
	      "meta version: read first in the document");
	CHECK(json_format_version("{\"tables\":[],\"format_version\":1}") ==
	      -1 &&
	      json_format_version("{\"format_version\":\"1\",\"tables\":[]}") ==
	      -1 &&
	      json_format_version("{\"format_version\":1.5,\"tables\":[]}") ==
	      -1 &&
	      json_format_version("{\"format_version\":99999999999}") == -1 &&
	      json_format_version("") == -1,
	      "meta version: missing, not first, not a whole number: none");
	CHECK(csvtab_meta_parse(&t, "{\"tables\":[{\"notes\":"
				"{\"a\":\"b\"}}]}") == -1 &&
	      csvtab_meta_parse(&t, "{\"format_version\":2,\"tables\":"
				"[{\"notes\":{\"a\":\"b\"}}]}") == -1 &&
	      t.nnotes == 0,
	      "meta version: notes of a document without the known version "
	      "refused");
}

/* A cell csv_put neutralised reads as the file has it, quote and all. */
static void test_csvtab_quote(void)
{
	static const char text[] = "a,b\n\"'-\",\"'=x\"\n";
	FILE *f = fmemopen((void *)text, sizeof(text) - 1, "r");
	struct csvtab *t = csvtab_read(f);

	fclose(f);
	CHECK(t && !strcmp(csvtab_cell(t, 0, 0), "'-") &&
	      !strcmp(csvtab_cell(t, 0, 1), "'=x"),
	      "csvtab: a neutralising quote kept");
	csvtab_free(t);
}

/* Render one small document into a string. */
static char *render(enum doc_format fmt, const char *dir)
{
	static const char *const head[] = { "name", "value" };
	static const char *const row[] = { "a|b <c>", "1.5" };
	char *buf = NULL;
	size_t len = 0;
	struct doc d = { .fmt = fmt, .dir = dir };

	d.f = open_memstream(&buf, &len);
	doc_begin(&d, "T & T");
	doc_heading(&d, 2, "Summary");
	doc_para(&d, "it's <b>");
	doc_item(&d, "flag %d", 1);
	doc_item(&d, "flag %d", 2);
	doc_table(&d, 2, head, "lr");
	doc_row(&d, row);
	doc_table_end(&d);
	doc_plot(&d, "p.svg", "A plot");
	doc_plot(&d, "missing.svg", "Gone");
	doc_end(&d);
	fclose(d.f);
	return buf;
}

static void test_docout(const char *dir)
{
	char *md = render(DOC_MD, dir), *html = render(DOC_HTML, dir);

	CHECK(strstr(md, "# T & T\n\n## Summary\n\nit's <b>\n\n"
		     "- flag 1\n- flag 2\n\n"),
	      "md: title, heading, list");
	CHECK(strstr(md, "| name | value |\n|---|---:|\n| a\\|b <c> | 1.5 |\n"),
	      "md: table with alignment and an escaped |");
	CHECK(strstr(md, "![A plot](p.svg)"), "md: a plot is a link");
	CHECK(strstr(md, "(plot missing.svg: not drawn"), "md: a missing plot said");
	CHECK(strstr(html, "<title>T &amp; T</title>") &&
	      strstr(html, "<ul>\n<li>flag 1</li>\n<li>flag 2</li>\n</ul>"),
	      "html: escaped title, list");
	CHECK(strstr(html, "<p>it's &lt;b&gt;</p>"),
	      "html: text escaped, an apostrophe as it is (attributes in "
	      "double quotes)");
	CHECK(strstr(html, "<tr><td>a|b &lt;c&gt;</td><td class=\"r\">1.5</td></tr>"),
	      "html: escaped cell, number right-aligned");
	/* "<svg/>" in base64 */
	CHECK(strstr(html, "src=\"data:image/svg+xml;base64,PHN2Zy8+\""),
	      "html: the plot inline as a data: URI");
	CHECK(strstr(html, "</body>\n</html>\n"), "html: closed");
	free(md);
	free(html);
}

static void test_anomaly(void)
{
	const double calls[] = { 1.0, 1.05, 1.1, 0.8, 1.2 };
	const double ok[] = { 1.0, 0.98, 1.5, NAN, 2.0 };
	struct stats tight = { .n = 11, .mean = 10, .median = 10, .min = 9.5,
			       .max = 10.5, .ci_lo = 9.6, .ci_hi = 10.4,
			       .ci_level = 0.988 };
	struct stats wide = tight;
	char why[200];
	int j;

	CHECK(anomaly_monotonic(calls, 5, 1, 0.1, &j) == 3 && j == 0,
	      "monotonic: a 3-argument call below the 0-argument one");
	CHECK(anomaly_monotonic(ok, 5, 1, 0.05, &j) == -1,
	      "monotonic: a 2%% dip within tolerance, NaN skipped");
	CHECK(anomaly_monotonic(calls, 5, 0, 0.1, &j) == 4,
	      "monotonic: decreasing expected");
	CHECK(!anomaly_spread(&tight, why, sizeof(why)), "spread: tight");
	wide.ci_hi = 14;
	CHECK(anomaly_spread(&wide, why, sizeof(why)) &&
	      !strcmp(why, "98.8% interval of the median 9.6..14 (n 11) "
		      "reaches beyond +-25% of the median 10"),
	      "spread: the median's interval, too wide above");
	wide = tight;
	wide.ci_lo = 7;
	CHECK(anomaly_spread(&wide, why, sizeof(why)),
	      "spread: the median's interval, too wide below");
	wide = tight;
	wide.mean = 40;
	wide.max = 400;
	CHECK(!anomaly_spread(&wide, why, sizeof(why)),
	      "spread: a far outlier outside the median's interval is not "
	      "a wide spread");
}

static void test_parsers(void)
{
	double ms = 0;

	CHECK(ping_reply_ms("64 bytes from 10.0.0.1: seq=0 ttl=64 time=0.076 ms",
			    &ms) == 0 && ms == 0.076, "ping: busybox line");
	CHECK(ping_reply_ms("64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 "
			    "time=12.5 ms\n", &ms) == 0 && ms == 12.5,
	      "ping: iputils line");
	CHECK(ping_reply_ms("round-trip min/avg/max = 0.1/0.2/0.3 ms", &ms) &&
	      ping_reply_ms("PING x (1.2.3.4): 56 data bytes", &ms),
	      "ping: other lines refused");
	CHECK(memspeed_parse_line("\tSpeed: 3200 MT/s") == 3200 &&
	      memspeed_parse_line("\tConfigured Memory Speed: 2933 MT/s") ==
	      2933 && memspeed_parse_line("\tSpeed: Unknown") == 0 &&
	      memspeed_parse_line("\tSize: 16 GB") == 0, "dmidecode lines");
}

static void test_errorbars(void)
{
	struct plot *p = plot_new("t", "x", "y", 0);
	size_t a = plot_series(p, "plain"), b = plot_series(p, "bars");
	char *buf = NULL, *script = NULL;
	size_t len = 0, slen = 0;
	FILE *f = open_memstream(&buf, &len), *g;

	plot_point(p, a, 1, 2);
	plot_point_err(p, b, 1, 2, 1.5, 3);
	plot_write_data(p, f);
	fclose(f);
	g = open_memstream(&script, &slen);
	plot_write_script(p, g, "o.svg", "o.dat");
	fclose(g);
	CHECK(buf && strstr(buf, "# plain\n1 2\n") &&
	      strstr(buf, "# bars (x y low high)\n1 2 1.5 3\n"),
	      "plot data: error bars as x y low high");
	CHECK(script && strstr(script, "index 0 with linespoints") &&
	      strstr(script, "index 1 using 1:2:3:4 with yerrorlines"),
	      "plot script: yerrorlines for the series with bars");
	plot_free(p);
	free(buf);
	free(script);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/test_report.XXXXXX";
	char *path;
	FILE *f;

	(void)argc;
	(void)argv;
	if (!mkdtemp(dir))
		return 1;
	path = malloc(strlen(dir) + 8);
	sprintf(path, "%s/p.svg", dir);
	f = fopen(path, "w");
	fputs("<svg/>", f);
	fclose(f);
	test_csvtab();
	test_csvtab_quote();
	test_meta_version();
	test_docout(dir);
	test_anomaly();
	test_parsers();
	test_errorbars();
	unlink(path);
	rmdir(dir);
	free(path);
	return check_done();
}
