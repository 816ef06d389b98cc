// SPDX-License-Identifier: GPL-2.0
/*
 * The grader's class reports on fixed inputs (user/gradeclass): CSV read
 * back (quotes, line breaks in a cell, blank lines, short and long rows)
 * and written (formulas neutralised, plain numbers kept, a CR quoted),
 * HTML escaping of what a submission controls, cutting at characters and
 * not bytes, Markdown cells (no tag, link or code span), links, student
 * names refused and accepted, the rubric's parser and its refusals, a case's score, and what differs
 * between two grade.options files.
 */
#include "check.h"
#include "csv.h"
#include "csvout.h"
#include "names.h"
#include "options.h"
#include "rubric.h"
#include "text.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What stmt wrote to f, as a string in out (free it). */
#define CAPTURE(out, stmt)						\
	do {								\
		size_t len_;						\
		FILE *f = open_memstream(&(out), &len_);		\
		stmt;							\
		fclose(f);						\
	} while (0)

static void test_csv_read(void)
{
	static const char text[] =
		"student,reason,x\r\n"
		"alice,\"a, \"\"b\"\"\nc\",1\n"
		"\n"
		"bob\n"
		"carol,r,2,extra\n";
	struct table t;
	struct rec r;

	CHECK(csv_parse(text, sizeof(text) - 1, &t) == 0 && t.ncols == 3 &&
	      t.nrows == 3, "csv: a header and three rows, the blank line skipped");
	r.t = &t;
	r.cells = t.rows[0];
	CHECK(!strcmp(rec_get(&r, "reason"), "a, \"b\"\nc"),
	      "csv: a quoted cell keeps its comma, quotes and line break");
	CHECK(!strcmp(rec_get(&r, "x"), "1"), "csv: the cell after it");
	r.cells = t.rows[1];
	CHECK(!strcmp(rec_get(&r, "x"), ""), "csv: a short row reads as empty cells");
	CHECK(rec_get(&r, "nope") == NULL && !strcmp(rec_get_or(&r, "nope", "n/a"), "n/a"),
	      "csv: a column the table has not is NULL, or the default");
	r.cells = t.rows[2];
	CHECK(!strcmp(rec_get(&r, "x"), "2"), "csv: cells past the header are dropped");
	csv_free(&t);
	CHECK(csv_parse("", 0, &t) == -1, "csv: an empty text has no header");
}

static void test_csv_write(void)
{
	const char *row[] = { "plain", "a,b", "say \"hi\"", "two\nlines", "" };
	const char *empty[] = { "" };
	char *out = NULL, *one = NULL;

	CAPTURE(out, csv_row(f, row, 5));
	CHECK(!strcmp(out, "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\n"),
	      "csv: quoted only where needed, quotes doubled");
	CAPTURE(one, csv_row(f, empty, 1));
	CHECK(!strcmp(one, "\"\"\n"), "csv: a row of one empty cell is not a blank line");
	free(out);
	free(one);
}

/* csv_cell of s as a string (free it). */
static char *cell(const char *s)
{
	char *out = NULL;

	CAPTURE(out, csv_cell(f, s));
	return out;
}

/* csv_cell of s is want. */
static void check_cell(const char *s, const char *want, const char *name)
{
	char *got = cell(s);

	CHECK(!strcmp(got, want), "csv formula: %s: got [%s]", name, got);
	free(got);
}

static void test_csv_formula(void)
{
	check_cell("=HYPERLINK(\"http://e/?\"&A1)", "\"'=HYPERLINK(\"\"http://e/?\"\"&A1)\"",
		   "'=' gets a quote inside quotes, its quotes doubled");
	check_cell("+cmd", "\"'+cmd\"", "'+'");
	check_cell("-2+3", "\"'-2+3\"", "'-' before an expression");
	check_cell("@SUM(A1)", "\"'@SUM(A1)\"", "'@'");
	check_cell("\t=1", "\"'\t=1\"", "a tab first");
	check_cell("\r=1", "\"'\r=1\"", "a CR first");
	check_cell("-", "\"'-\"", "a lone '-'");
	check_cell("-1", "-1", "a negative integer stays a number");
	check_cell("-0.25", "-0.25", "a negative fraction stays a number");
	check_cell("-1.5e-05", "-1.5e-05", "a negative number with an exponent");
	check_cell("-1.", "\"'-1.\"", "'-1.' is not a plain number");
	check_cell("a\rb", "\"a\rb\"", "a bare CR inside is quoted");
	check_cell("a\nb", "\"a\nb\"", "an LF inside is quoted");
	check_cell("a=b", "a=b", "'=' not first is left alone");
	check_cell("'=x", "\"''=x\"", "a quote and a formula: one more quote");
	check_cell("'abc", "'abc", "a quote before text is left alone");
	check_cell("", "", "an empty cell");
	CHECK(csv_is_number("12") && csv_is_number("-3.5E+2") && !csv_is_number("") &&
	      !csv_is_number("-") && !csv_is_number("1e") && !csv_is_number("0x1"),
	      "csv formula: what a plain number is");
}

static void test_csv_roundtrip(void)
{
	const char *row[] = { "x\r=1+1", "=A1", "-7", "'=B2", "'x,y" };
	struct table t;
	struct rec r;
	char *out = NULL;

	CAPTURE(out, { fputs("a,b,c,d,e\n", f); csv_row(f, row, 5); });
	CHECK(csv_parse(out, strlen(out), &t) == 0 && t.nrows == 1,
	      "csv formula: a CR in a cell adds no row: %s", out);
	r.t = &t;
	r.cells = t.rows[0];
	CHECK(!strcmp(rec_get(&r, "a"), "x\r=1+1") && !strcmp(rec_get(&r, "b"), "=A1") &&
	      !strcmp(rec_get(&r, "c"), "-7") && !strcmp(rec_get(&r, "d"), "'=B2") &&
	      !strcmp(rec_get(&r, "e"), "'x,y"),
	      "csv formula: each cell reads back as it was, the neutralising quote dropped");
	csv_free(&t);
	free(out);
}

static void test_text(void)
{
	char *out = NULL;

	CAPTURE(out, html_put(f, "<script>alert('x')</script> & \"q\""));
	CHECK(!strcmp(out, "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; &quot;q&quot;"),
	      "html: < > & \" ' are entities: %s", out);
	free(out);
	CHECK(utf8_prefix("\xc3\xa9\xc3\xa9\xc3\xa9", 2) == 4,
	      "utf8: two characters of three two-byte ones are four bytes");
	CHECK(utf8_prefix("ab", 5) == 2, "utf8: a shorter string whole");
	CAPTURE(out, html_put_cut(f, "<\xc3\xa9>", 2));
	CHECK(!strcmp(out, "&lt;\xc3\xa9"), "html: cut at characters, then escaped");
	free(out);
	CAPTURE(out, md_put(f, "a|b\nc|d", 5));
	CHECK(!strcmp(out, "a/b c"), "md: | as /, a line break as a space, cut: %s", out);
	free(out);
	CAPTURE(out, md_put(f, "x\r\ty<img src=x onerror=1>&`c`[l](javascript:1)\\", 200));
	CHECK(!strcmp(out, "x  y&lt;img src=x onerror=1&gt;&amp;\\`c\\`\\[l\\](javascript:1)\\\\"),
	      "md: CR and tab as spaces, no tag, code span or link: %s", out);
	free(out);
	CAPTURE(out, url_put(f, "javascript:x y/\xc3\xa9-._~"));
	CHECK(!strcmp(out, "javascript%3Ax%20y%2F%C3%A9-._~"),
	      "url: no scheme, space or slash left: %s", out);
	free(out);
}

static void test_names(void)
{
	static const char *const bad[] = {
		"", ".", "..", "a/b", "/", "a\rb", "a\nb", "\x7f", "-rf", "work",
		"WORK", "students", "Rubric", "summary.csv", "report.html",
		"grade.options.new",
	};
	char buf[128], longest[NAME_MAX_BYTES + 2];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(name_problem(bad[i], buf, sizeof(buf)) != NULL,
		      "names: bad name %zu refused: %s", i,
		      name_problem(bad[i], buf, sizeof(buf)));
	CHECK(name_problem("alice", buf, sizeof(buf)) == NULL &&
	      name_problem("b01902001 \xc3\xa9", buf, sizeof(buf)) == NULL &&
	      name_problem("works", buf, sizeof(buf)) == NULL &&
	      name_problem("a.-b", buf, sizeof(buf)) == NULL,
	      "names: ordinary names, UTF-8 and near-misses of reserved ones pass");
	memset(longest, 'x', sizeof(longest));
	longest[NAME_MAX_BYTES] = '\0';
	CHECK(name_problem(longest, buf, sizeof(buf)) == NULL, "names: 100 bytes pass");
	longest[NAME_MAX_BYTES] = 'x';
	longest[NAME_MAX_BYTES + 1] = '\0';
	CHECK(name_problem(longest, buf, sizeof(buf)) != NULL &&
	      !strcmp(buf, "longer than 100 bytes"), "names: 101 bytes refused");
	CHECK(!strcmp(name_problem("a\tb", buf, sizeof(buf)),
		      "a control character (byte 0x09) in the name"),
	      "names: the control character named");
}

/* rubric_parse of text; 0 or -1. */
static int parse(const char *text, struct rubric *r)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc = rubric_parse(f, "R", r);

	fclose(f);
	return rc;
}

static void test_rubric(void)
{
	struct rubric r;

	CHECK(parse("# weights\nbytes 50 required\n\n exits\t10 optional # x\n", &r) == 0 &&
	      r.n == 2 && r.line[1].crit == 1 && r.line[1].weight == 10 &&
	      r.line[0].required && !r.line[1].required,
	      "rubric: two lines, comments and blank lines skipped");
	CHECK(parse("bytes 50 required\nexit 10 optional\n", &r) == -1 &&
	      !strcmp(msg_last(NULL), "R:2: want 'CRITERION WEIGHT required|optional' with CRITERION one of bytes, exits, time_line, pages, kernel_log: exit 10 optional"),
	      "rubric: an unknown criterion refused with its line: %s", msg_last(NULL));
	CHECK(parse("pages -1 optional\n", &r) == -1, "rubric: a negative weight refused");
	CHECK(parse("pages 1 maybe\n", &r) == -1, "rubric: neither required nor optional");
	CHECK(parse("pages 1 optional x\n", &r) == -1, "rubric: a fourth word refused");
	CHECK(parse("pages 1 optional\npages 2 optional\n", &r) == -1 &&
	      !strcmp(msg_last(NULL), "R:2: pages given twice"), "rubric: a criterion twice");
	CHECK(parse("bytes 0 required\n", &r) == -1 &&
	      !strcmp(msg_last(NULL), "R: no criterion has a weight"), "rubric: no weight");
	CHECK(parse("", &r) == -1, "rubric: an empty rubric");
	CHECK(parse("bytes 50 required\n", &r) == 0 && !r.strict_time_line,
	      "rubric: strict_time_line is off by default");
	CHECK(parse("bytes 50 required\nstrict_time_line yes # exact\n", &r) == 0 &&
	      r.strict_time_line, "rubric: strict_time_line yes");
	CHECK(parse("strict_time_line yes\nstrict_time_line no\nbytes 5 required\n", &r) == 0 &&
	      !r.strict_time_line, "rubric: strict_time_line no, the last one given");
	CHECK(parse("bytes 50 required\nstrict_time_line on\n", &r) == -1 &&
	      !strcmp(msg_last(NULL), "R:2: want 'strict_time_line yes|no': strict_time_line on"),
	      "rubric: strict_time_line neither yes nor no refused: %s", msg_last(NULL));
}

static void test_score(void)
{
	static const char text[] =
		"bytes_ok,exits_ok,time_line_ok,pages_ok,kernel_log_ok\n"
		"pass,pass,pass,pass,pass\n"
		"pass,fail,pass,n/a,pass\n"
		"fail,pass,pass,pass,pass\n"
		"pass,pass,pass,pass,fail\n";
	struct table t;
	struct rubric r;
	struct rec row = { &t, NULL };

	parse("bytes 50 required\nexits 10 optional\ntime_line 20 optional\n"
	      "pages 20 optional\nkernel_log 0 required\n", &r);
	csv_parse(text, sizeof(text) - 1, &t);
	row.cells = t.rows[0];
	CHECK(case_score(&row, &r) == 1.0, "score: every criterion passed");
	row.cells = t.rows[1];
	CHECK(case_score(&row, &r) == 70.0 / 80.0, "score: exits failed, pages n/a: 70/80");
	row.cells = t.rows[2];
	CHECK(case_score(&row, &r) == 0.0, "score: a required criterion failed: 0");
	row.cells = t.rows[3];
	CHECK(case_score(&row, &r) == 0.0, "score: a required criterion of weight 0 failed: 0");
	csv_free(&t);
}

static void test_options(void)
{
	char a[] = "/tmp/syncdev-gc-XXXXXX", b[] = "/tmp/syncdev-gc-XXXXXX";
	int fa = mkstemp(a), fb = mkstemp(b);
	struct options oa, ob;
	char **lines;
	size_t n;

	dprintf(fa, "timeout=20\nkernel=6.1\nshard=1/2\nrubric_file=x\ncli=m=1\n");
	dprintf(fb, "kernel=6.12\ntimeout=20\nshard=2/2\nrubric_file=y\nmodule=m\ncli=m=1\n");
	close(fa);
	close(fb);
	options_read(a, &oa);
	options_read(b, &ob);
	CHECK(!strcmp(options_get(&oa, "cli"), "m=1"), "options: a value holds '=' after the first");
	n = options_diff(&oa, &ob, &lines);
	CHECK(n == 2 && !strcmp(lines[0], "kernel: '6.1' vs '6.12'") &&
	      !strcmp(lines[1], "module: '(none)' vs 'm'"),
	      "options: what differs, sorted, shard and rubric_file not compared");
	while (n--)
		free(lines[n]);
	free(lines);
	options_free(&oa);
	options_free(&ob);
	unlink(a);
	unlink(b);
}

int main(void)
{
	set_progname("test");
	test_csv_read();
	test_csv_write();
	test_csv_formula();
	test_csv_roundtrip();
	test_text();
	test_names();
	test_rubric();
	test_score();
	test_options();
	return check_done();
}
