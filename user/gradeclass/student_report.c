// SPDX-License-Identifier: GPL-2.0
/*
 * A student's report.md.  Every text from outside (names, command lines,
 * what a guest wrote or printed) goes through md_put: plain text, never
 * markup.
 */
#include "student.h"
#include "slurp.h"
#include "text.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A table row "| key | value |", value escaped. */
static void row(FILE *f, const char *key, const char *value)
{
	fputs("| ", f);
	md_put(f, key, 100);
	fputs(" | ", f);
	md_put(f, value ? value : "", 300);
	fputs(" |\n", f);
}

static const char *data_label(const char *set, char *buf, size_t len)
{
	static const char *const labels[][2] = {
		{ "small", "the course's 10 small files" }, { "large", "the course's large file" },
		{ "big", "2 device buffers + 1 byte" }, { "1M+1", "1 MiB + 1 byte" },
		{ "64M", "64 MiB" } };
	size_t i;

	for (i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
		if (!strcmp(set, labels[i][0]))
			return labels[i][1];
	snprintf(buf, len, "%s bytes", set);
	return buf;
}

/* STAGE/info's "key: value" lines as rows. */
static void info_rows(FILE *f, const struct run *r)
{
	char path[4096], *text, *p, *save = NULL, *sep;

	snprintf(path, sizeof(path), "%s/info", r->stage);
	text = slurp(path, 65536, NULL);
	for (p = text ? strtok_r(text, "\n", &save) : NULL; p; p = strtok_r(NULL, "\n", &save)) {
		text_clean(p, strlen(p));
		sep = strstr(p, ": ");
		if (sep)
			*sep = '\0';
		row(f, p, sep ? sep + 2 : "");
	}
	free(text);
}

static void head(FILE *f, const struct run *r, const struct verdict *v, size_t n,
		 const char *score)
{
	size_t i, p = 0, fl = 0;
	char buf[512], date[64];
	time_t now = time(NULL);

	for (i = 0; i < n; i++)
		p += !strcmp(v[i].result, "pass"), fl += !strcmp(v[i].result, "fail");
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", gmtime(&now));
	fputs("# Grading report", f);
	if (*r->name)
		fputs(": ", f), md_put(f, r->name, 100);
	fputs("\n\n| | |\n|---|---|\n", f);
	row(f, "date", date);
	snprintf(buf, sizeof(buf), "%s (QEMU, %s)", r->kernel ? r->kernel : "?",
		 r->accel && !strcmp(r->accel, "kvm") ? "KVM" :
		 "TCG: times are emulated, compare them only with each other");
	row(f, "guest kernel", buf);
	info_rows(f, r);
	snprintf(buf, sizeof(buf), "%zu: %zu passed, %zu failed, %zu not run", n, p, fl,
		 n - p - fl);
	row(f, "cases", buf);
	snprintf(buf, sizeof(buf), "%s%% (weighted by %s)", score, r->rubric_path);
	row(f, "score", buf);
	snprintf(buf, sizeof(buf), "%s s per program and case (three times that for big and 64M)",
		 r->timeout ? r->timeout : "?");
	row(f, "time limit", buf);
	row(f, "time spent", r->spent);
	snprintf(buf, sizeof(buf), "%s, %s", r->cli[0], r->cli[1]);
	row(f, "command lines", buf);
	if (r->fatal)
		row(f, "not run because", r->fatal_why);
}

static void results_table(FILE *f, const struct verdict *v, size_t n)
{
	char buf[64];
	size_t i, c;

	fputs("\n## Results\n\n"
	      "bytes, time_line and kernel_log are the host's own checks: it made the data,\n"
	      "compared the output files after the guest was off, read each program's output\n"
	      "and the console it captured.  exits and pages are guest-reported: a submission\n"
	      "that runs as root in the guest could forge them (docs/grading-trust.md).\n\n"
	      "| VMs | case | data | result | bytes | exits | time_line | pages | kernel_log | why |\n"
	      "|---|---|---|---|---|---|---|---|---|---|\n", f);
	for (i = 0; i < n; i++) {
		fprintf(f, "| %c | %s | %s | %s |", v[i].vms[0], v[i].name,
			data_label(v[i].set, buf, sizeof(buf)), v[i].result);
		for (c = 0; c < NCRIT; c++)
			fprintf(f, " %s |", v[i].crit[c]);
		fputc(' ', f);
		md_put(f, v[i].reason ? v[i].reason : "", 300);
		fputs(" |\n", f);
	}
}

/*
 * Up to lines lines (the last ones when last) of a file a guest or
 * program wrote, as list items under "- WHAT (HOW, N lines[, WHOSE]):".
 */
static void excerpt(FILE *f, const char *path, const char *what, const char *how,
		    const char *whose, size_t lines, int last)
{
	char *text = slurp(path, 65536, NULL), *p, *save = NULL, *v[512];
	size_t n = 0, i;

	for (p = text ? strtok_r(text, "\n", &save) : NULL; p && n < 512;
	     p = strtok_r(NULL, "\n", &save))
		v[n++] = p;
	if (n) {
		fprintf(f, "- %s (%s, %zu lines%s%s):\n", what, how, n, *whose ? ", " : "",
			whose);
		for (i = last && n > lines ? n - lines : 0; i < n && lines; i++, lines--) {
			text_clean(v[i], strlen(v[i]));
			fputs("  - ", f);
			md_put(f, v[i], 200);
			fputc('\n', f);
		}
	}
	free(text);
}

static void side_line(FILE *f, const struct run *r, const struct verdict *v, size_t s)
{
	static const char *const sides[2] = { "master", "slave" };
	const struct result *res = &v->res[s];
	char path[4096];

	if (res->state == RES_MISSING) {
		fprintf(f, "- %s: no result\n", sides[s]);
		return;
	}
	if (res->state == RES_MALFORMED) {
		fprintf(f, "- %s: malformed result (", sides[s]);
		md_put(f, res->why, 200);
		fputs(")\n", f);
		return;
	}
	fprintf(f, "- %s: exit %s%s%s s (guest-reported); time line: ", sides[s], res->rc,
		*res->secs ? ", " : "", res->secs);
	md_put(f, *v->time[s].line ? v->time[s].line : "none", 200);
	if (v->time[s].pass && strcmp(v->time[s].form, "strict"))
		fprintf(f, " (accepted: %s form)", v->time[s].form);
	fputc('\n', f);
	snprintf(path, sizeof(path), "%s/results/%s/%s.%s.out", r->stage, v->vms, v->name,
		 sides[s]);
	if (v->reason && strstr(v->reason, sides[s]))
		excerpt(f, path, "its output", "the last lines", "", 2, 1);
}

#define KLOG "kernel log during the case"

static void case_details(FILE *f, const struct run *r, const struct verdict *v)
{
	char path[4096];

	fprintf(f, "### %s %s: %s\n\n", v->vms, v->name, v->result);
	if (v->reason) {
		fputs("- why: ", f);
		md_put(f, v->reason, 1000);
		fputc('\n', f);
	}
	side_line(f, r, v, 0);
	side_line(f, r, v, 1);
	if (*v->want_sum)
		fprintf(f, "- output sha256: %s (input: %s)\n", *v->got_sum ? v->got_sum : "none",
			v->want_sum);
	if (!strcmp(v->vms, "1vm")) {
		snprintf(path, sizeof(path), "%s/results/1vm/%s.klog", r->stage, v->name);
		excerpt(f, path, KLOG, "guest-reported", "", 8, 0);
	} else {
		snprintf(path, sizeof(path), "%s/results/2vm/%s.master.klog", r->stage, v->name);
		excerpt(f, path, KLOG, "guest-reported", "master guest", 8, 0);
		snprintf(path, sizeof(path), "%s/results/2vm/%s.slave.klog", r->stage, v->name);
		excerpt(f, path, KLOG, "guest-reported", "slave guest", 8, 0);
	}
	fputc('\n', f);
}

static void boot_rows(FILE *f, const struct run *r)
{
	static const char *const who[] = { "vm", "master", "slave" };
	char path[4096], key[64], *t;
	size_t b, i;

	for (b = 0; b < r->nvms && !r->fatal; b++) {
		snprintf(path, sizeof(path), "%s/results/%s/fate", r->stage, r->vms[b]);
		t = slurp(path, 1024, NULL);
		if (t)
			text_clean(t, strlen(t));
		snprintf(key, sizeof(key), "%s boot", r->vms[b]);
		row(f, key, t && *t ? t : "finished");
		free(t);
		for (i = 0; i < 3; i++) {
			snprintf(path, sizeof(path), "%s/results/%s/unload.%s", r->stage,
				 r->vms[b], who[i]);
			t = slurp(path, 1024, NULL);
			if (!t || !*t) {
				free(t);
				continue;
			}
			text_clean(t, strlen(t));
			snprintf(key, sizeof(key), "%s rmmod (%s)", r->vms[b], who[i]);
			row(f, key, t);
			free(t);
		}
	}
}

void student_report(FILE *f, const struct run *r, struct verdict *v, size_t n,
		    const char *score)
{
	size_t i;

	head(f, r, v, n, score);
	boot_rows(f, r);
	results_table(f, v, n);
	fputs("\n## Cases\n\n", f);
	for (i = 0; i < n; i++)
		case_details(f, r, &v[i]);
}
