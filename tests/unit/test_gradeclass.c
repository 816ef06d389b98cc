// SPDX-License-Identifier: GPL-2.0
/*
 * The grader's class reports on fixed inputs (user/gradeclass): CSV read
 * back (quotes, line breaks in a cell, blank lines, short and long rows)
 * and written, HTML escaping of what a submission controls, cutting at
 * characters and not bytes, Markdown cells, links, the rubric's parser
 * and its refusals, a case's score, and what differs between two
 * grade.options files.
 */
#include "check.h"
#include "csv.h"
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
	CAPTURE(out, url_put(f, "javascript:x y/\xc3\xa9-._~"));
	CHECK(!strcmp(out, "javascript%3Ax%20y%2F%C3%A9-._~"),
	      "url: no scheme, space or slash left: %s", out);
	free(out);
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
	test_text();
	test_rubric();
	test_score();
	test_options();
	return check_done();
}
