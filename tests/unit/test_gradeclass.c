// SPDX-License-Identifier: GPL-2.0
/*
 * The grader's class reports on fixed inputs (user/gradeclass): CSV read
 * back (quotes, line breaks in a cell, blank lines, short and long rows)
 * and written (formulas neutralised, plain numbers kept, a CR quoted),
 * HTML escaping of what a submission controls, cutting at characters and
 * not bytes, Markdown cells (no tag, link or code span), links, student
 * names refused and accepted, the rubric's parser and its refusals, a case's score, what differs
 * between two grade.options files (the accelerator compared or not), a
 * student's times.csv (rows taken, rows refused, no file) as summary.csv's
 * last columns and the class's time, and which accelerator graded which
 * shard.  The host's verdict parts: the strict result parser (every
 * malformed form, never a half-read file), the time-line judge (forms
 * accepted and refused), the attribution of a console offset to a case by
 * the control file (out-of-order and forged lines ignored), and
 * text_clean (C0, DEL, C1).
 */
#include "accel.h"
#include "attrib.h"
#include "check.h"
#include "class.h"
#include "csv.h"
#include "csvout.h"
#include "names.h"
#include "options.h"
#include "result.h"
#include "rubric.h"
#include "slurp.h"
#include "text.h"
#include "timeline.h"
#include "times.h"
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
		"WORK", "students", "Rubric", "summary.csv", "Summary.JSON", "report.html",
		"grade.options.new", "Times.csv",
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
	CHECK(parse("bytes 50 required\n", &r) == 0 && !r.legacy_send_zero,
	      "rubric: legacy_send_result is bytes by default");
	CHECK(parse("bytes 50 required\nlegacy_send_result zero\n", &r) == 0 &&
	      r.legacy_send_zero, "rubric: legacy_send_result zero");
	CHECK(parse("legacy_send_result zero\nlegacy_send_result bytes\nbytes 5 required\n",
		    &r) == 0 && !r.legacy_send_zero, "rubric: legacy_send_result bytes");
	CHECK(parse("bytes 50 required\nlegacy_send_result 0\n", &r) == -1 &&
	      !strcmp(msg_last(NULL), "R:2: want 'legacy_send_result bytes|zero': "
		      "legacy_send_result 0"), "rubric: legacy_send_result 0 refused");
	CHECK(parse("bytes 50 required\n", &r) == 0 && !r.legacy_read_starter,
	      "rubric: legacy_read is fill by default");
	CHECK(parse("bytes 50 required\nlegacy_read starter\n", &r) == 0 &&
	      r.legacy_read_starter && !r.legacy_send_zero && !r.strict_time_line,
	      "rubric: legacy_read starter, the other settings kept");
	CHECK(parse("legacy_read starter\nlegacy_read fill\nbytes 5 required\n", &r) == 0 &&
	      !r.legacy_read_starter, "rubric: legacy_read fill, the last one given");
	CHECK(parse("bytes 50 required\nlegacy_read 512\n", &r) == -1 &&
	      !strcmp(msg_last(NULL), "R:2: want 'legacy_read fill|starter': legacy_read 512"),
	      "rubric: legacy_read 512 refused: %s", msg_last(NULL));
	CHECK(parse("bytes 50 required\nlegacy_read starter fill\n", &r) == -1,
	      "rubric: legacy_read with two words refused");
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
	static const char *const skip_accel[] = { "accel", NULL };
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
	n = options_diff(&oa, &ob, NULL, &lines);
	CHECK(n == 2 && !strcmp(lines[0], "kernel: '6.1' vs '6.12'") &&
	      !strcmp(lines[1], "module: '(none)' vs 'm'"),
	      "options: what differs, sorted, shard and rubric_file not compared");
	while (n--)
		free(lines[n]);
	free(lines);
	options_set(&oa, "accel", "tcg");
	options_set(&ob, "accel", "kvm");
	options_set(&ob, "kernel", "6.1");
	options_set(&oa, "module", "m");
	n = options_diff(&oa, &ob, NULL, &lines);
	CHECK(n == 1 && !strcmp(lines[0], "accel: 'tcg' vs 'kvm'"),
	      "options: the accelerator compared when nothing is skipped");
	while (n--)
		free(lines[n]);
	free(lines);
	n = options_diff(&oa, &ob, skip_accel, &lines);
	CHECK(n == 0, "options: the accelerator not compared when skipped");
	free(lines);
	options_free(&oa);
	options_free(&ob);
	unlink(a);
	unlink(b);
}

/* times_from_table of text, its message count in *bad. */
static struct times times_of(const char *text, size_t *bad)
{
	struct table t;
	struct times tm;

	csv_parse(text, strlen(text), &t);
	*bad = times_from_table(&t, "T", &tm);
	csv_free(&t);
	return tm;
}

/* Column i of tm as summary.csv writes it is want. */
static int cell_is(const struct times *tm, int i, const char *want)
{
	char buf[24];

	return !strcmp(times_cell(tm, i, buf), want);
}

static void test_times(void)
{
	struct times tm;
	size_t bad;
	int k;

	tm = times_of("phase,seconds\nstaging,12\nboot_1vm,30\ncases_1vm,100\n"
		      "boot_2vm,41\ncases_2vm,200\nchecks,3\ntotal,390\n", &bad);
	CHECK(bad == 0 && cell_is(&tm, T_STAGING, "12") && cell_is(&tm, T_BOOT, "71") &&
	      cell_is(&tm, T_CASES_1VM, "100") && cell_is(&tm, T_CASES_2VM, "200") &&
	      cell_is(&tm, T_CHECKS, "3") && cell_is(&tm, T_TOTAL, "390"),
	      "times: every phase, the two boots summed");
	tm = times_of("seconds,phase\n5,total\n0,boot_1vm\n7,cases_1vm\n", &bad);
	CHECK(bad == 0 && cell_is(&tm, T_TOTAL, "5") && cell_is(&tm, T_BOOT, "0") &&
	      cell_is(&tm, T_CASES_1VM, "7") && cell_is(&tm, T_STAGING, "") &&
	      cell_is(&tm, T_CASES_2VM, "") && cell_is(&tm, T_CHECKS, ""),
	      "times: columns by name; a phase absent is empty, a zero is 0");
	tm = times_of("phase,seconds\n", &bad);
	for (k = 0; k < NTIMES && cell_is(&tm, k, ""); k++)
		;
	CHECK(bad == 0 && k == NTIMES, "times: a header alone: every cell empty");
	CHECK(times_read("/nonexistent/times.csv", &tm) == 0 && !tm.has[T_TOTAL] &&
	      cell_is(&tm, T_TOTAL, ""), "times: no file: no message, every cell empty");
	CHECK(!strcmp(time_columns[0], "staging_s") && !strcmp(time_columns[1], "boot_s") &&
	      !strcmp(time_columns[2], "cases_1vm_s") && !strcmp(time_columns[3], "cases_2vm_s") &&
	      !strcmp(time_columns[4], "checks_s") && !strcmp(time_columns[5], "total_s"),
	      "times: summary.csv's column names, in their order");
}

/* A times.csv of one row besides total,9 leaves that row out, saying why. */
static void check_refused(const char *row, const char *why, const char *name)
{
	char *text = xasprintf("phase,seconds\n%s\ntotal,9\n", row);
	struct times tm;
	size_t bad;
	int k, others = 0;

	msg_forget();
	tm = times_of(text, &bad);
	for (k = 0; k < T_TOTAL; k++)
		others += tm.has[k];
	CHECK(bad == 1 && !others && cell_is(&tm, T_TOTAL, "9") &&
	      !strcmp(msg_last(NULL), why), "times refused: %s: %s", name, msg_last(NULL));
	free(text);
}

static void test_times_refused(void)
{
	struct times tm;
	size_t bad;

	check_refused("boot,5", "T: unknown phase 'boot', left out", "an unknown phase");
	check_refused("staging,-3", "T: staging: seconds '-3' are not a whole number up to 1000000000, left out",
		      "negative seconds");
	check_refused("staging,2.5", "T: staging: seconds '2.5' are not a whole number up to 1000000000, left out",
		      "a fraction");
	check_refused("staging,", "T: staging: seconds '' are not a whole number up to 1000000000, left out",
		      "no seconds");
	check_refused("staging, 4", "T: staging: seconds ' 4' are not a whole number up to 1000000000, left out",
		      "a space before the number");
	check_refused("checks,1000000001", "T: checks: seconds '1000000001' are not a whole number up to 1000000000, left out",
		      "more than the most");
	check_refused("checks,99999999999999999999999", "T: checks: seconds '99999999999999999999999' are not a whole number up to 1000000000, left out",
		      "a 64-bit overflow");
	tm = times_of("phase,seconds\ntotal,9\ntotal,1\n", &bad);
	CHECK(bad == 1 && cell_is(&tm, T_TOTAL, "9") &&
	      !strcmp(msg_last(NULL), "T: phase total given twice, left out"),
	      "times refused: a phase given twice keeps the first: %s", msg_last(NULL));
	tm = times_of("total,9\nstaging,3\n", &bad);
	CHECK(bad == 1 && !tm.has[T_TOTAL] && !tm.has[T_STAGING] &&
	      !strcmp(msg_last(NULL), "T: no 'phase,seconds' header, left out"),
	      "times refused: no header: nothing taken: %s", msg_last(NULL));
}

/* A class of three: timed, timed in part, not timed. */
static void three(struct class *c, struct student s[3])
{
	memset(c, 0, sizeof(*c));
	memset(s, 0, 3 * sizeof(*s));
	s[0].name = "alice";
	s[0].result = "pass";
	s[0].first_failure = "";
	s[0].times.secs[T_STAGING] = 12;
	s[0].times.secs[T_TOTAL] = 100;
	s[0].times.has[T_STAGING] = s[0].times.has[T_TOTAL] = 1;
	s[1] = s[0];
	s[1].name = "bob";
	s[1].times.has[T_STAGING] = 0;
	s[1].times.secs[T_TOTAL] = 51;
	s[2] = s[0];
	s[2].name = "carol";
	memset(&s[2].times, 0, sizeof(s[2].times));
	c->students = s;
	c->nstudents = 3;
}

static void test_summary_times(void)
{
	char dir[] = "/tmp/syncdev-gc-XXXXXX", *path, *line;
	struct class c;
	struct student s[3];
	struct table t;

	three(&c, s);
	mkdtemp(dir);
	path = xasprintf("%s/summary.csv", dir);
	CHECK(write_tables_summary(&c, dir) == 0 && csv_read(path, &t) == 0 &&
	      t.ncols == 19 && t.nrows == 3, "summary: 19 columns, a row per student");
	CHECK(!strcmp(t.head[12], "first_failure") && !strcmp(t.head[13], "staging_s") &&
	      !strcmp(t.head[18], "total_s"), "summary: the time columns after first_failure");
	CHECK(!strcmp(t.rows[0][13], "12") && !strcmp(t.rows[0][14], "") &&
	      !strcmp(t.rows[0][18], "100"), "summary: a student's seconds, empty where none");
	CHECK(!strcmp(t.rows[1][13], "") && !strcmp(t.rows[1][18], "51") &&
	      !strcmp(t.rows[2][18], ""), "summary: a phase not timed, a student not timed");
	csv_free(&t);
	unlink(path);
	rmdir(dir);
	free(path);
	line = class_time(&c);
	CHECK(!strcmp(line, "time: 151 s for the 2 students timed, a mean of 76 s each (1 not timed)"),
	      "class time: the sum and rounded mean of those timed: %s", line);
	free(line);
	c.nstudents = 1;
	line = class_time(&c);
	CHECK(!strcmp(line, "time: 100 s for the 1 student timed, a mean of 100 s each"),
	      "class time: every student timed: %s", line);
	free(line);
	c.students = &s[2];
	line = class_time(&c);
	CHECK(!strcmp(line, "time: not recorded"), "class time: none timed: %s", line);
	free(line);
}

/* n options of "shard=K/N" and accel (NULL: none) each. */
static struct options *shards(size_t n, const char *const *spec)
{
	struct options *o = xcalloc(n, sizeof(*o));
	size_t i;

	for (i = 0; i < n; i++) {
		options_set(&o[i], "shard", spec[2 * i]);
		if (spec[2 * i + 1])
			options_set(&o[i], "accel", spec[2 * i + 1]);
	}
	return o;
}

static void free_shards(struct options *o, size_t n)
{
	while (n--)
		options_free(&o[n]);
	free(o);
}

static void test_accel(void)
{
	static const char *const same[] = { "1/2", "tcg", "2/2", "tcg" };
	static const char *const differ[] = { "3/3", "tcg", "1/3", "kvm", "2/3", NULL };
	struct options *o = shards(2, same), merged = { 0 };
	char *s = accel_by_shard(o, 2);

	CHECK(s == NULL, "accel: shards under one accelerator: nothing to list");
	free_shards(o, 2);
	o = shards(3, differ);
	s = accel_by_shard(o, 3);
	CHECK(s && !strcmp(s, "kvm (shard 1/3), not recorded (shard 2/3), tcg (shard 3/3)"),
	      "accel: shards that differ, in shard order: %s", s ? s : "(null)");
	free(s);
	s = accel_describe(&o[0]);
	CHECK(!strcmp(s, "accelerator: tcg"), "accel: one batch's line: %s", s);
	free(s);
	s = accel_describe(&o[2]);
	CHECK(!strcmp(s, "accelerator: not recorded"), "accel: a batch without one: %s", s);
	free(s);
	options_set(&merged, "accel", "mixed");
	options_set(&merged, "accel_shards", "kvm (shard 1/2), tcg (shard 2/2)");
	s = accel_describe(&merged);
	CHECK(!strcmp(s, "accelerators: kvm (shard 1/2), tcg (shard 2/2)"),
	      "accel: a merge of shards that differ: %s", s);
	free(s);
	options_free(&merged);
	free_shards(o, 3);
}

/* result_parse of a string. */
static int parse_state(const char *text, struct result *r)
{
	result_parse(text, strlen(text), r);
	return r->state;
}

static void test_result(void)
{
	struct result r;
	char *long_line;

	CHECK(parse_state("check=exits\ncheck=pages\nreason=master: x\nreason=y\n"
			  "why.exits=master: x\nrc=0\nsecs=1.25\npages=3\nbytes=10\n"
			  "files=1\ndevice_bytes=10\nstatus=fail\nend=1\n", &r) == RES_OK &&
	      r.checks == 0xa && !strcmp(r.reasons, "master: x; y") &&
	      !strcmp(r.whys[1], "master: x") && !strcmp(r.rc, "0") &&
	      r.has_device_bytes && r.device_bytes == 10 && r.bytes == 10,
	      "result: every key read");
	result_free(&r);
	CHECK(parse_state("rc=0\nend=1", &r) == RES_OK, "result: no newline after end=1");
	result_free(&r);
	CHECK(parse_state("", &r) == RES_MALFORMED && !strcmp(r.why, "empty"),
	      "result: empty is malformed");
	result_free(&r);
	CHECK(parse_state("rc=0\nend=1\n=x\n", &r) == RES_MALFORMED &&
	      !strcmp(r.why, "line 3: a line after end=1"), "result: '=x' after end=1");
	result_free(&r);
	CHECK(parse_state("=x\nend=1\n", &r) == RES_MALFORMED &&
	      !strcmp(r.why, "line 1: not key=value"), "result: '=x' first");
	result_free(&r);
	CHECK(parse_state("rc=0\n", &r) == RES_MALFORMED &&
	      !strcmp(r.why, "no end=1 line (incomplete)"), "result: no end=1");
	result_free(&r);
	CHECK(parse_state("time=x\nend=1\n", &r) == RES_MALFORMED, "result: unknown key");
	result_free(&r);
	CHECK(parse_state("why.score=x\nend=1\n", &r) == RES_MALFORMED,
	      "result: why of an unknown criterion");
	result_free(&r);
	CHECK(parse_state("rc=0\nrc=1\nend=1\n", &r) == RES_MALFORMED, "result: rc twice");
	result_free(&r);
	CHECK(parse_state("device_bytes=-1\nend=1\n", &r) == RES_MALFORMED,
	      "result: a negative device_bytes");
	result_free(&r);
	CHECK(parse_state("reason=a\rb\nend=1\n", &r) == RES_MALFORMED, "result: a CR");
	result_free(&r);
	CHECK(parse_state("reason=a\xc2\x9b" "b\nend=1\n", &r) == RES_MALFORMED,
	      "result: a C1 CSI (U+009B)");
	result_free(&r);
	CHECK(parse_state("reason=caf\xc3\xa9\nend=1\n", &r) == RES_OK, "result: UTF-8 kept");
	result_free(&r);
	result_parse("rc=0\0\nend=1\n", 12, &r);
	CHECK(r.state == RES_MALFORMED, "result: a NUL");
	result_free(&r);
	long_line = xasprintf("reason=%01001d\nend=1\n", 0);
	CHECK(parse_state(long_line, &r) == RES_MALFORMED &&
	      !strcmp(r.why, "line 1: longer than 1000 bytes"), "result: 1008 bytes");
	result_free(&r);
	free(long_line);
	result_load("/nonexistent/x.res", &r);
	CHECK(r.state == RES_MISSING, "result: no file is missing");
}

static const uint64_t small_sizes[] = { 32, 859, 1343, 1663, 2042, 3065, 2808, 4056,
					3659, 4619 };

/* timeline_judge of out against the ten small files. */
static const char *judge(const char *out, int strict, int per_file, struct timeline *t)
{
	struct timeline_want w = { small_sizes, 10, strict, per_file };

	timeline_judge(out, strlen(out), &w, t);
	return t->pass ? t->form : t->why;
}

static void test_timeline(void)
{
	struct timeline t;

	CHECK(!strcmp(judge("Transmission time: 1.5 ms, File size: 24146 bytes\n", 0, 0, &t),
		      "strict") && !strcmp(t.ms, "1.5"), "time: the course's line");
	CHECK(!strcmp(judge("x\nTotal transmission time: 2 ms, Total file size: 24146 bytes\n",
			    0, 0, &t), "prefixed"), "time: a total summary");
	CHECK(!strcmp(judge("Transmission time: 2 ms, File size: 24145 bytes\n"
			    "Transmission time: 2 ms, File size: 1 bytes\n"
			    "Total transmission time: 4 ms, Total file size: 24146 bytes\n",
			    0, 0, &t), "strict"), "time: per-file lines and a summary");
	CHECK(!strcmp(judge("Transmission time: 1 ms, File size: 3018 bytes\n", 0, 0, &t),
		      "size/8"), "time: the total / 8");
	CHECK(!strcmp(judge("Master: Transmission time: 1 ms, File size: 577 bytes\n", 0, 1, &t),
		      "prefixed+size/8"), "time: one file a run, the last file / 8");
	CHECK(!strncmp(judge("Master: Transmission time: 1 ms, File size: 577 bytes\n", 0, 0, &t),
		       "time line says 577 bytes", 24), "time: all files a run, 577 refused");
	CHECK(!strcmp(judge("no line\n", 0, 0, &t),
		      "no 'Transmission time' line in its output"), "time: no line");
	CHECK(!strncmp(judge("Transmission time: 1 msec\n", 0, 0, &t), "malformed time line", 19),
	      "time: malformed");
	CHECK(!strncmp(judge("Slave: Transmission time: 1 ms, File size: 24146 bytes\n", 1, 0, &t),
		       "time line not alone", 19), "time: strict refuses a prefix");
	CHECK(!strcmp(judge("Transmission time: 1 ms, File size: 3018 bytes\n", 1, 0, &t),
		      "time line says 3018 bytes; the files hold 24146 (strict_time_line: not "
		      "their size / 8)"), "time: strict refuses the size / 8");
	CHECK(!strcmp(judge("Transmission time: 1 ms, File size: 99999999999999999999999 bytes\n",
			    0, 0, &t), "malformed time line: 'Transmission time: 1 ms, File size: "
		      "99999999999999999999999 bytes'"), "time: a size too long to be one");
}

static void test_attrib(void)
{
	char path[] = "/tmp/test_gradeclass.XXXXXX";
	struct control c;
	FILE *f;
	int fd = mkstemp(path);

	f = fd < 0 ? NULL : fdopen(fd, "w");
	CHECK(f != NULL, "attrib: a control file");
	if (!f)
		return;
	fputs("begin 1 0\nrun 1 2 5\nend 1 10\nbegin 3 100\nbegin 2 150\nbegin 9 200\n"
	      "junk\nbegin 4 90\nend 3 120\nbegin 4 300 x\nbegin 4 300\ndone 400\nignored 5\n", f);
	fclose(f);
	control_load(path, 4, &c);
	unlink(path);
	CHECK(c.present && c.nbegin == 3 && c.k[0] == 1 && c.k[1] == 3 && c.k[2] == 4,
	      "attrib: begins out of order, past the cases or at a lower offset ignored");
	CHECK(control_case(&c, 0) == 1 && control_case(&c, 99) == 1, "attrib: case 1's bytes");
	CHECK(control_case(&c, 100) == 3 && control_case(&c, 299) == 3, "attrib: case 3's bytes");
	CHECK(control_case(&c, 300) == 4 && control_case(&c, 1u << 30) == 4,
	      "attrib: after done, the last case begun");
	CHECK(c.done && c.last_begun == 4 && c.last_ended == 3, "attrib: where the guest was");
	control_load("/nonexistent", 4, &c);
	CHECK(!c.present && control_case(&c, 12345) == 1, "attrib: no control file: case 1");
}

static void test_clean(void)
{
	char s[] = "a\033[2J\x07" "b\xc2\x85" "c\xc2\x9b" "d\x7f" "e\xc3\xa9";

	text_clean(s, strlen(s));
	CHECK(!strcmp(s, "a [2J b  c  d e\xc3\xa9"), "text_clean: C0, C1 and DEL, UTF-8 kept");
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
	test_times();
	test_times_refused();
	test_summary_times();
	test_accel();
	test_result();
	test_timeline();
	test_attrib();
	test_clean();
	return check_done();
}
