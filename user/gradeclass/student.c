// SPDX-License-Identifier: GPL-2.0
/*
 * The verdict of each case (docs/grading.md, "Criteria and the rubric"):
 * bytes and kernel_log from the host's own checks, time_line from the
 * program's output, exits and pages as the guest reported them; a side
 * whose result file is missing, empty or malformed fails the criteria it
 * would have checked.
 */
#include "student.h"
#include "attrib.h"
#include "slurp.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const sides[2] = { "master", "slave" };

/* The criteria by their index in criteria[]. */
enum { C_BYTES, C_EXITS, C_TIME, C_PAGES, C_KERNEL };

size_t boot_first_missing(const struct run *r, const char *vms);

/* The words of s (space-separated) into w; how many, at most max. */
static size_t split(char *s, char **w, size_t max)
{
	char *save = NULL, *t;
	size_t n = 0;

	for (t = strtok_r(s, " ", &save); t && n < max; t = strtok_r(NULL, " ", &save))
		w[n++] = t;
	return n;
}

/* One "key=value" line of host.conf. */
static void conf_line(struct run *r, char *k, char *v)
{
	char **text[] = { &r->name, &r->rubric_path, &r->kernel, &r->accel,
			  &r->timeout, &r->spent, &r->problems, &r->cli[0], &r->cli[1] };
	const char *keys[] = { "name", "rubric", "kernel", "accel", "timeout",
			       "spent", "problems", "cli_master", "cli_slave" };
	size_t i;

	text_clean(v, strlen(v));
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (!strcmp(k, keys[i])) {
			free(*text[i]);
			*text[i] = xstrdup(v);
			return;
		}
	}
	if (!strcmp(k, "vms"))
		r->nvms = split(xstrdup(v), r->vms, 2);
	else if (!strcmp(k, "data"))
		r->ndata = split(xstrdup(v), r->data, MAX_WORDS);
	else if (!strcmp(k, "methods"))
		r->nmethods = split(xstrdup(v), r->methods, MAX_WORDS);
}

static char *stage_file(const struct run *r, const char *name, size_t max)
{
	char path[4096];
	char *s;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", r->stage, name);
	s = slurp(path, max, &len);
	if (s) {
		while (len && (s[len - 1] == '\n' || s[len - 1] == ' '))
			s[--len] = '\0';
		text_clean(s, len);
	}
	return s;
}

int run_load(struct run *r, const char *stage, const char *dir)
{
	char *conf, *p, *nl, *s;

	memset(r, 0, sizeof(*r));
	r->stage = stage;
	r->dir = dir;
	conf = xasprintf("%s/host.conf", stage);
	p = conf;
	conf = slurp(p, 65536, NULL);
	free(p);
	if (!conf)
		return fail("%s/host.conf: cannot be read", stage);
	for (p = conf; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		if ((s = strchr(p, '=')))
			*s = '\0', conf_line(r, p, s + 1);
	}
	free(conf);
	if (!r->name || !r->rubric_path || !r->nvms || !r->ndata || !r->nmethods ||
	    !r->cli[0] || !r->cli[1] || !r->problems)
		return fail("%s/host.conf: incomplete", stage);
	if (rubric_read(r->rubric_path, &r->rubric))
		return -1;
	s = stage_file(r, "strict-pages", 16);
	r->strict_pages = s && !strcmp(s, "1");
	free(s);
	r->fatal_why = stage_file(r, "fatal", 4096);
	r->fatal = r->fatal_why != NULL;
	return 0;
}

int boot_load(const struct run *r, const char *vms, struct boot *b)
{
	static const char *const logs[3][2] = {
		{ "1vm", "master" }, { "2vm-master", "master" }, { "2vm-slave", "slave" } };
	struct control c;
	char path[4096], ctl[4096];
	size_t i, s;

	memset(b, 0, sizeof(*b));
	b->vms = vms;
	b->ncases = r->ndata * r->nmethods;
	for (s = 0; s < 2; s++)
		b->kernel[s] = xcalloc(b->ncases + 1, sizeof(char *));
	for (i = 0; i < 3; i++) {
		if (strncmp(logs[i][0], vms, 3))
			continue;
		s = !strcmp(logs[i][1], "slave");
		snprintf(path, sizeof(path), "%s/%s.log", r->stage, logs[i][0]);
		snprintf(ctl, sizeof(ctl), "%s/%s.control", r->stage, logs[i][0]);
		control_load(ctl, b->ncases, &c);
		if (c.present && c.last_begun && c.last_ended != c.last_begun && !b->where)
			b->where = c.last_begun;
		if (console_problems(path, &c, r->problems, b->kernel[s], b->ncases))
			return -1;
	}
	if (!b->where && !c.present)
		b->where = boot_first_missing(r, vms);
	if (b->where)
		snprintf(b->where_name, sizeof(b->where_name), "%s.%s",
			 r->data[(b->where - 1) / r->nmethods],
			 r->methods[(b->where - 1) % r->nmethods]);
	snprintf(path, sizeof(path), "results/%s/fate", vms);
	b->fate = stage_file(r, path, 1024);
	if (b->fate && !*b->fate) {
		free(b->fate);
		b->fate = NULL;
	}
	return 0;
}

void boot_free(struct boot *b)
{
	size_t i, s;

	for (s = 0; s < 2; s++) {
		for (i = 0; i < b->ncases; i++)
			free(b->kernel[s][i]);
		free(b->kernel[s]);
	}
	free(b->fate);
}

char *join_reason(char *reason, const char *more)
{
	char *s;

	if (!more || !*more)
		return reason;
	s = xasprintf("%s%s%s", reason ? reason : "", reason && *reason ? "; " : "", more);
	free(reason);
	return s;
}

/* The first case of a boot that lacks a result file: where it stopped. */
size_t boot_first_missing(const struct run *r, const char *vms)
{
	char path[4096];
	size_t d, m, s, k = 0;

	for (d = 0; d < r->ndata; d++) {
		for (m = 0; m < r->nmethods; m++) {
			k++;
			for (s = 0; s < 2; s++) {
				snprintf(path, sizeof(path), "%s/results/%s/%s.%s.%s.res",
					 r->stage, vms, r->data[d], r->methods[m], sides[s]);
				if (access(path, F_OK))
					return k;
			}
		}
	}
	return 0;
}

/* A data set's files (STAGE/sizes/SET). */
static void dataset_load(const struct run *r, const char *set, struct dataset *ds)
{
	char path[4096], *text, *p, *nl;
	unsigned long long size;

	memset(ds, 0, sizeof(*ds));
	snprintf(path, sizeof(path), "%s/sizes/%s", r->stage, set);
	text = slurp(path, 65536, NULL);
	for (p = text; p && *p && ds->n < 64; p = nl + 1) {
		nl = strchrnul(p, '\n');
		if (sscanf(p, "%*s %llu", &size) == 1) {
			ds->sizes[ds->n++] = size;
			ds->total += size;
		}
		if (!*nl)
			break;
	}
	free(text);
}

/* The host's verdict on the output files: why they failed, or "". */
static char *bytes_why(const struct run *r, struct verdict *v)
{
	char path[4096], *text, *p, *save = NULL, *why = NULL, *sum;
	size_t s;

	/* One problem a line: each line cleaned, not the lines joined. */
	snprintf(path, sizeof(path), "%s/results/%s/%s.bytes", r->stage, v->vms, v->name);
	text = slurp(path, 4096, NULL);
	if (!text)
		why = xstrdup("slave: no output files");
	for (p = text && strcmp(text, "pass\n") && strcmp(text, "pass") ?
		 strtok_r(text, "\n", &save) : NULL; p;
	     p = strtok_r(NULL, "\n", &save)) {
		text_clean(p, strlen(p));
		sum = xasprintf("slave: %s", p);
		why = join_reason(why, sum);
		free(sum);
	}
	free(text);
	for (s = 0; r->strict_pages && s < 2; s++) {
		const struct result *res = &v->res[s];

		if (res->state != RES_OK || (res->has_device_bytes &&
					     res->device_bytes >= v->ds.total))
			continue;
		sum = xasprintf("%s: the data did not cross syncdev.ko (device_bytes %llu of %llu)",
				sides[s],
				(unsigned long long)res->device_bytes,
				(unsigned long long)v->ds.total);
		why = join_reason(why, sum);
		free(sum);
	}
	return why;
}

/* The time line of a side, judged from its output. */
static void judge_time(const struct run *r, struct verdict *v, size_t s)
{
	struct timeline_want w = { v->ds.sizes, v->ds.n, r->rubric.strict_time_line, 0 };
	char path[4096], *out;
	size_t len = 0;

	w.per_file_runs = strstr(r->cli[s], "{file}") != NULL;
	snprintf(path, sizeof(path), "%s/results/%s/%s.%s.out", r->stage, v->vms, v->name,
		 sides[s]);
	out = slurp(path, 65536, &len);
	timeline_judge(out ? out : "", out ? len : 0, &w, &v->time[s]);
	free(out);
}

/* Why side s fails every criterion it would have checked, or NULL. */
static char *side_broken(const struct verdict *v, size_t s)
{
	if (v->res[s].state != RES_MALFORMED)
		return NULL;
	return xasprintf("%s: malformed result (%s)", sides[s], v->res[s].why);
}

/* The reasons of a judged case, in the reports' order. */
static char *case_reasons(struct verdict *v, const struct boot *b, size_t k,
			  const char *bytes, char *broken[2])
{
	char *reason = NULL, *t;
	size_t s;

	for (s = 0; s < 2; s++) {
		if (v->res[s].state == RES_OK)
			reason = join_reason(reason, v->res[s].reasons);
		reason = join_reason(reason, broken[s]);
		if (v->res[s].state == RES_OK && !v->time[s].pass) {
			v->why[C_TIME] = v->why[C_TIME] ? v->why[C_TIME] :
				xasprintf("%s: %s", sides[s], v->time[s].why);
			t = xasprintf("%s: %s", sides[s], v->time[s].why);
			reason = join_reason(reason, t);
			free(t);
		}
		if (s == 1)
			reason = join_reason(reason, bytes);
		if (b->kernel[s][k - 1]) {
			t = xasprintf("%s: kernel log: %s", sides[s], b->kernel[s][k - 1]);
			reason = join_reason(reason, t);
			if (!v->why[C_KERNEL])
				v->why[C_KERNEL] = t;
			else
				free(t);
		}
	}
	return reason;
}

/* The case's result when a side left no result file at all. */
static void case_missing(struct verdict *v, const struct boot *b, size_t k)
{
	char *t;

	if (b->where == k) {
		v->result = "fail";
		v->reason = join_reason(v->reason, b->fate ? b->fate :
					"the guest stopped in this case");
		return;
	}
	v->result = "not-run";
	free(v->reason);
	if (b->where)
		t = xasprintf("%s (in %s)", b->fate ? b->fate : "no result", b->where_name);
	else
		t = xstrdup(b->fate ? b->fate : "no result");
	v->reason = xasprintf("not run: %s", t);
	free(t);
}

/* Side s (0 master, 1 slave) of the method pair "MM-SM" maps. */
static int side_mmap(const char *pair, size_t s)
{
	const char *dash = strchr(pair, '-');

	return s ? dash && !strcmp(dash + 1, "mmap") : !strncmp(pair, "mmap-", 5);
}

/* The criteria of a verdict whose result and reason are set. */
static void criteria_of(const struct run *r, struct verdict *v, char *bytes, char *broken[2])
{
	int both = v->res[0].state != RES_MISSING && v->res[1].state != RES_MISSING;
	unsigned int checked = 0;
	size_t c, s;

	for (s = 0; s < 2; s++)
		checked |= v->res[s].state == RES_OK ? v->res[s].checks : 0;
	if (bytes && !v->why[C_BYTES])
		v->why[C_BYTES] = strndup(bytes, strcspn(bytes, ";"));
	for (c = 0; c < NCRIT; c++) {
		for (s = 0; !v->why[c] && s < 2 && (c == C_EXITS || c == C_PAGES); s++)
			if (v->res[s].state == RES_OK && v->res[s].whys[c])
				v->why[c] = xstrdup(v->res[s].whys[c]);
		for (s = 0; !v->why[c] && s < 2; s++)
			if (broken[s] && (c == C_EXITS || c == C_TIME ||
					  (c == C_PAGES && side_mmap(v->pair, s))))
				v->why[c] = xstrdup(broken[s]);
		if (!strcmp(v->result, "not-run") || r->fatal ||
		    (!v->why[c] && !both && !strcmp(v->result, "fail"))) {
			free(v->why[c]);
			v->why[c] = xstrdup(v->reason ? v->reason : "");
			v->crit[c] = strcmp(v->result, "not-run") ? "fail" : "not-run";
		} else if (v->why[c]) {
			v->crit[c] = "fail";
		} else if (c == C_BYTES || c == C_KERNEL || c == C_TIME ||
			   (checked & (1u << c))) {
			v->crit[c] = "pass";
		} else {
			v->crit[c] = "n/a";
		}
	}
}

static void read_sum(const struct run *r, struct verdict *v)
{
	char path[512], *text;

	snprintf(path, sizeof(path), "results/%s/%s.sum", v->vms, v->name);
	text = stage_file(r, path, 64);
	if (text && sscanf(text, "%16[0-9a-f] %16[0-9a-f]", v->want_sum, v->got_sum) < 1)
		v->want_sum[0] = '\0';
	free(text);
}

void verdict_make(const struct run *r, const struct boot *b, size_t k,
		  const char *set, const char *pair, struct verdict *v)
{
	char path[4096], *bytes = NULL, *broken[2] = { NULL, NULL };
	size_t s;

	memset(v, 0, sizeof(*v));
	v->vms = b->vms, v->set = set, v->pair = pair;
	snprintf(v->name, sizeof(v->name), "%s.%s", set, pair);
	dataset_load(r, set, &v->ds);
	read_sum(r, v);
	for (s = 0; s < 2; s++) {
		snprintf(path, sizeof(path), "%s/results/%s/%s.%s.res", r->stage, b->vms,
			 v->name, sides[s]);
		result_load(path, &v->res[s]);
		if (v->res[s].state == RES_OK)
			judge_time(r, v, s);
		broken[s] = side_broken(v, s);
	}
	if (r->fatal) {
		v->result = "fail";
		v->reason = xstrdup(r->fatal_why);
	} else {
		bytes = bytes_why(r, v);
		v->reason = case_reasons(v, b, k, bytes, broken);
		if (v->res[0].state != RES_MISSING && v->res[1].state != RES_MISSING)
			v->result = v->reason ? "fail" : "pass";
		else
			case_missing(v, b, k);
	}
	criteria_of(r, v, bytes, broken);
	free(bytes);
	free(broken[0]);
	free(broken[1]);
}

void verdict_free(struct verdict *v)
{
	size_t i;

	for (i = 0; i < 2; i++)
		result_free(&v->res[i]);
	for (i = 0; i < NCRIT; i++)
		free(v->why[i]);
	free(v->reason);
}
