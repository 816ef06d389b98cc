// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the shared helper library (user/common). */
#include "check.h"
#include "report.h"
#include "stats.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

static void test_parse_size(void)
{
	uint64_t v = 0;

	CHECK(parse_size("0", &v) == 0 && v == 0, "parse_size 0");
	CHECK(parse_size("4096", &v) == 0 && v == 4096, "parse_size 4096");
	CHECK(parse_size("4K", &v) == 0 && v == 4096, "parse_size 4K");
	CHECK(parse_size("4k", &v) == 0 && v == 4096, "parse_size 4k");
	CHECK(parse_size("1M", &v) == 0 && v == 1048576, "parse_size 1M");
	CHECK(parse_size("128MiB", &v) == 0 && v == 128ull << 20,
	      "parse_size 128MiB");
	CHECK(parse_size("2G", &v) == 0 && v == 2ull << 30, "parse_size 2G");
	CHECK(parse_size("", &v) == -1 && errno == EINVAL, "parse_size empty");
	CHECK(parse_size("-1", &v) == -1 && errno == EINVAL,
	      "parse_size negative");
	CHECK(parse_size("12Q", &v) == -1 && errno == EINVAL,
	      "parse_size bad suffix");
	CHECK(parse_size("4Kx", &v) == -1 && errno == EINVAL,
	      "parse_size trailing junk");
	CHECK(parse_size("99999999999999999999", &v) == -1 && errno == ERANGE,
	      "parse_size overflow");
	CHECK(parse_size("17179869184T", &v) == -1 && errno == ERANGE,
	      "parse_size suffix overflow");
}

static void test_parse_uint(void)
{
	uint64_t v = 0;

	CHECK(parse_uint("10", 1, 10, &v) == 0 && v == 10, "parse_uint max");
	CHECK(parse_uint("0", 1, 10, &v) == -1 && errno == ERANGE,
	      "parse_uint below min");
	CHECK(parse_uint("11", 1, 10, &v) == -1 && errno == ERANGE,
	      "parse_uint above max");
	CHECK(parse_uint("1x", 1, 10, &v) == -1 && errno == EINVAL,
	      "parse_uint junk");
}

static void test_stats(void)
{
	const double s[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	const double odd[] = { 3, 1, 2 };
	const double bad[] = { 1, NAN };
	struct stats st;

	CHECK(stats_compute(s, 8, &st) == 0, "stats even n");
	CHECK(st.n == 8 && st.mean == 5 && st.median == 4.5 && st.min == 2 &&
	      st.max == 9, "stats mean/median/min/max");
	CHECK(fabs(st.stddev - 2.138089935) < 1e-6, "stats sample stddev");
	CHECK(st.ci_lo == 2 && st.ci_hi == 9 &&
	      fabs(st.ci_level - (1 - 2.0 / 256)) < 1e-12,
	      "stats: 8 samples, the median's interval is min..max at 99.2%%");
	CHECK(stats_compute(odd, 3, &st) == 0 && st.median == 2,
	      "stats odd median");
	CHECK(stats_compute(odd, 1, &st) == 0 && st.stddev == 0 &&
	      st.ci_lo == 3 && st.ci_hi == 3 && st.ci_level == 0,
	      "stats single sample");
	CHECK(stats_compute(s, 0, &st) == -1 && errno == EINVAL,
	      "stats rejects n=0");
	CHECK(stats_compute(bad, 2, &st) == -1 && errno == EINVAL,
	      "stats rejects NaN");
}

/* The ranks of the median's interval, checked against the binomial. */
static void test_median_ranks(void)
{
	static const struct {
		size_t n, lo;
		double level;
	} want[] = {
		{ 1, 1, 0 }, { 3, 1, 0.75 }, { 5, 1, 0.9375 },
		{ 6, 1, 1 - 2.0 / 64 }, { 7, 1, 1 - 2.0 / 128 },
		{ 8, 1, 1 - 2.0 / 256 }, { 9, 2, 1 - 2 * 10.0 / 512 },
		{ 11, 2, 1 - 2 * 12.0 / 2048 }, { 12, 3, 1 - 2 * 79.0 / 4096 },
		{ 20, 6, 1 - 2 * 21700.0 / 1048576 },
	};
	size_t i, lo, hi;
	double level;
	int ok = 1;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		stats_median_ranks(want[i].n, &lo, &hi, &level);
		if (lo != want[i].lo || hi != want[i].n + 1 - want[i].lo ||
		    fabs(level - want[i].level) > 1e-9) {
			printf("n %zu: ranks %zu..%zu at %.6f\n", want[i].n, lo,
			       hi, level);
			ok = 0;
		}
	}
	CHECK(ok, "stats: the median's interval at exact order statistics "
	      "(n 1..20)");
}

/* A heavy tail: one sample 30x the others, as a fork on a busy host. */
static void test_median_heavy_tail(void)
{
	const double fork_us[] = { 109, 3650, 120, 115, 131, 112, 118 };
	const double many[] = { 10, 11, 9, 10, 12, 10, 900, 11, 10, 9, 10 };
	struct stats st;

	CHECK(stats_compute(fork_us, 7, &st) == 0 && st.median == 118 &&
	      st.ci_lo == 109 && st.ci_hi == 3650 && st.ci_lo >= st.min &&
	      st.mean - 2.447 * st.stddev / sqrt(7) < 0,
	      "stats: heavy tail, 7 samples: interval 109..3650, inside "
	      "[min, max], where the mean's would go below 0");
	CHECK(stats_compute(many, 11, &st) == 0 && st.median == 10 &&
	      st.ci_lo == 9 && st.ci_hi == 12 && st.ci_lo > 0,
	      "stats: heavy tail, 11 samples: 2nd..10th (9..12), the "
	      "outlier outside");
}

static char *render(enum report_format fmt, double v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct report *r = report_new("demo", fmt, f);

	report_column(r, "name", NULL);
	report_column(r, "rate", "MiB/s");
	report_note(r, "file", "%s", "a,b");
	report_str(r, "x\"y");
	report_num(r, v);
	report_str(r, "z");
	report_none(r);
	report_end(r);
	fclose(f);
	return buf;
}

static void test_report(void)
{
	char *t = render(REPORT_TEXT, 1.5);
	char *c = render(REPORT_CSV, 1.5);
	char *j = render(REPORT_JSON, 1.5);
	char *big_t = render(REPORT_TEXT, 20394.6);
	char *big_c = render(REPORT_CSV, 20394.6);

	CHECK(strstr(t, "# file: a,b\n") && strstr(t, "rate (MiB/s)") &&
	      strstr(t, "1.5"), "report text has notes, units, values");
	CHECK(!strcmp(c, "name,rate_MiB/s\n\"x\"\"y\",1.5\nz,\n"),
	      "report csv exact: a header, then rows, no notes");
	CHECK(!strcmp(j, "{\"format_version\":1,"
			 "\"title\":\"demo\",\"notes\":{\"file\":\"a,b\"},"
			 "\"columns\":[{\"name\":\"name\",\"unit\":null},"
			 "{\"name\":\"rate\",\"unit\":\"MiB/s\"}],"
			 "\"rows\":[{\"name\":\"x\\\"y\",\"rate\":1.5},"
			 "{\"name\":\"z\",\"rate\":null}]}\n"),
	      "report json exact");
	CHECK(strstr(big_t, " 20395") && !strstr(big_t, "e+"),
	      "report text: a rate of thousands in whole units, no exponent");
	CHECK(strstr(big_c, ",20394.6\n"), "report csv: full precision");
	free(big_t);
	free(big_c);
	free(t);
	free(c);
	free(j);
}

/* Two CSV tables' metadata into one JSON document beside them. */
static void test_report_meta(void)
{
	char *buf = NULL, *csv;
	size_t len = 0;
	FILE *meta = open_memstream(&buf, &len);

	report_meta_begin(meta);
	csv = render(REPORT_CSV, 1.5);
	free(csv);
	csv = render(REPORT_CSV, 2);
	report_meta_end();
	fclose(meta);
	CHECK(!strcmp(csv, "name,rate_MiB/s\n\"x\"\"y\",2\nz,\n"),
	      "report meta: the CSV stays plain");
	CHECK(!strcmp(buf, "{\"format_version\":1,\"tables\":[\n"
		      "{\"title\":\"demo\",\"notes\":"
		      "{\"file\":\"a,b\"},\"columns\":[{\"name\":\"name\","
		      "\"unit\":null},{\"name\":\"rate\",\"unit\":\"MiB/s\"}]},"
		      "\n{\"title\":\"demo\",\"notes\":{\"file\":\"a,b\"},"
		      "\"columns\":[{\"name\":\"name\",\"unit\":null},"
		      "{\"name\":\"rate\",\"unit\":\"MiB/s\"}]}]}\n"),
	      "report meta: title, notes and units of both tables, one "
	      "JSON document");
	free(csv);
	csv = render(REPORT_CSV, 3);
	CHECK(!strcmp(csv, "name,rate_MiB/s\n\"x\"\"y\",3\nz,\n"),
	      "report meta: none written after report_meta_end");
	free(csv);
	free(buf);
}

static void test_full_io(void)
{
	int p[2];
	char out[100], in[100];
	uint64_t calls;
	size_t i;

	for (i = 0; i < sizeof(out); i++)
		out[i] = (char)i;
	CHECK(pipe(p) == 0, "pipe");
	CHECK(write_full(p[1], out, sizeof(out)) == sizeof(out), "write_full");
	close(p[1]);
	CHECK(read_full(p[0], in, sizeof(in)) == sizeof(in) &&
	      !memcmp(in, out, sizeof(in)), "read_full content");
	CHECK(read_full(p[0], in, sizeof(in)) == 0, "read_full at EOF");
	close(p[0]);

	/* Three bytes then EOF: one read() for the bytes, one sees EOF. */
	CHECK(pipe(p) == 0, "pipe");
	CHECK(write_full(p[1], "abc", 3) == 3, "write_full 3 bytes");
	close(p[1]);
	calls = 5;
	CHECK(read_full_counted(p[0], in, sizeof(in), &calls) == 3 &&
	      calls == 7 && !memcmp(in, "abc", 3),
	      "read_full_counted adds its 2 read() calls (got %llu)",
	      (unsigned long long)calls - 5);
	close(p[0]);
}

/* Run fn in a child with stderr captured; its exit code and message. */
static int in_child(void (*fn)(void), char *err, size_t len)
{
	int p[2], status;
	ssize_t n;
	pid_t pid;

	fflush(stdout);
	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 2);
		fn();
		_exit(0);
	}
	close(p[1]);
	n = read_full(p[0], err, len - 1);
	err[n > 0 ? n : 0] = '\0';
	close(p[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void alloc_too_much(void)
{
	xreallocarray(NULL, SIZE_MAX / 2, 4);
}

/* Exact multiples stay, others go up, and a sum past 2^64 is refused. */
static void test_round_up(void)
{
	uint64_t v = 7;

	CHECK(round_up_u64(0, 4096, &v) == 0 && v == 0, "round up 0");
	CHECK(round_up_u64(1, 4096, &v) == 0 && v == 4096, "round up 1 to 4096");
	CHECK(round_up_u64(8192, 4096, &v) == 0 && v == 8192,
	      "round up a multiple: unchanged");
	CHECK(round_up_u64(UINT64_MAX - 4095, 4096, &v) == 0 &&
	      v == UINT64_MAX - 4095, "round up the largest multiple of 4096");
	v = 7;
	CHECK(round_up_u64(UINT64_MAX - 4094, 4096, &v) == -1 && v == 7,
	      "round up past 2^64: refused, result untouched");
	CHECK(round_up_u64(UINT64_MAX, 4096, &v) == -1 && v == 7,
	      "round up 2^64-1: refused (wraps to 0 unchecked)");
	CHECK(round_up_u64(UINT64_MAX, 1, &v) == 0 && v == UINT64_MAX,
	      "round up to a unit of 1: unchanged");
	CHECK(round_up_u64(UINT64_MAX - 2, 3, &v) == 0 && v == UINT64_MAX,
	      "round up to an odd unit, up to 2^64-1 exactly");
}

static void test_alloc(void)
{
	unsigned char *z = xcalloc(1000, 4);
	char *s = xasprintf("%s-%d", "block", 42), *d = xstrdup("copy");
	char err[256];
	int *a = xreallocarray(NULL, 3, sizeof(int)), rc;
	size_t i, nonzero = 0;

	for (i = 0; i < 4000; i++)
		nonzero += z[i] != 0;
	CHECK(nonzero == 0, "xcalloc zeroes what it returns");
	CHECK(!strcmp(s, "block-42"), "xasprintf formats");
	CHECK(!strcmp(d, "copy"), "xstrdup copies");
	a[2] = 7;
	a = xreallocarray(a, 1000, sizeof(int));
	CHECK(a[2] == 7, "xreallocarray keeps the contents");
	CHECK(xmalloc(0) != NULL && xcalloc(0, 8) != NULL,
	      "zero-size allocations return a pointer, not failure");
	rc = in_child(alloc_too_much, err, sizeof(err));
	CHECK(rc == EXIT_FAIL && strstr(err, "out of memory"),
	      "overflowing xreallocarray exits 1 saying out of memory "
	      "(got %d '%s')", rc, err);
	free(z);
	free(s);
	free(d);
	free(a);
}

int main(void)
{
	test_parse_size();
	test_parse_uint();
	test_stats();
	test_report_meta();
	test_median_ranks();
	test_median_heavy_tail();
	test_report();
	test_full_io();
	test_alloc();
	test_round_up();
	return check_done();
}
