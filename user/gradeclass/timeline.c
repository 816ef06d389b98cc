// SPDX-License-Identifier: GPL-2.0
#include "timeline.h"
#include "slurp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A time line as read: its size, whether it is a total, alone. */
struct tline {
	uint64_t size;
	int total, alone;
};

/* Where in s (n bytes) the words w start, case-insensitive, or NULL. */
static const char *find_ci(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w), i;

	for (i = 0; i + k <= n; i++)
		if (!strncasecmp(s + i, w, k))
			return s + i;
	return NULL;
}

static const char *spaces(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Skip the word w (case-insensitive) and the spaces after it; NULL if not there. */
static const char *word(const char *p, const char *w)
{
	size_t k = strlen(w);

	return strncasecmp(p, w, k) ? NULL : spaces(p + k);
}

/* Skip digits (and a fraction when frac); NULL when none. */
static const char *number(const char *p, int frac, char *copy, size_t len)
{
	const char *s = p;

	while (*p >= '0' && *p <= '9')
		p++;
	if (p == s)
		return NULL;
	if (frac && *p == '.' && p[1] >= '0' && p[1] <= '9')
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
	if (copy)
		snprintf(copy, len, "%.*s", (int)(p - s), s);
	return spaces(p);
}

/* Parse the sentence that starts at p; 0 with *l and ms, or -1. */
static int sentence(const char *line, const char *p, struct tline *l,
		    char *ms, size_t mslen)
{
	char size[24];
	const char *q;

	p = word(p, "transmission time:");
	p = p ? number(p, 1, ms, mslen) : NULL;
	p = p ? word(p, "ms,") : NULL;
	if (!p)
		return -1;
	l->total = (q = word(p, "total")) != NULL;
	p = word(q ? q : p, "file size:");
	p = p ? number(p, 0, size, sizeof(size)) : NULL;
	p = p && strlen(size) <= 18 ? word(p, "bytes") : NULL;
	if (!p)
		return -1;
	l->size = strtoull(size, NULL, 10);
	l->alone = !*spaces(p) && *spaces(line) && !strncasecmp(spaces(line), "transmission", 12);
	return 0;
}

/* src into dst (size bytes), cut before a UTF-8 character that would not fit. */
static void cut(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size) {
		n = size - 1;
		while (n && ((unsigned char)src[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* What the lines of an output add up to. */
struct seen {
	size_t course, totals, bad;
	uint64_t last, sum, total_hit;	/* total_hit: a total line's size that fits */
	int course_not_alone;
	char first_bad[121], first_around[121];
};

/* The sizes that count as the bytes (form 1) or the size / 8 (form 2). */
static int size_form(uint64_t v, const struct timeline_want *w, uint64_t total,
		     int last_only)
{
	uint64_t sum8 = 0, lastsz = w->nfiles ? w->sizes[w->nfiles - 1] : 0;
	size_t i;

	for (i = 0; i < w->nfiles; i++)
		sum8 += w->sizes[i] / 8;
	if (!last_only && v == total)
		return 1;
	if (!last_only && (v == total / 8 || v == sum8))
		return 2;
	if (last_only && w->per_file_runs && v == lastsz)
		return 1;
	if (last_only && w->per_file_runs && v == lastsz / 8)
		return 2;
	return 0;
}

static void take(const char *line, struct seen *s, const struct timeline_want *w,
		 uint64_t total, struct timeline *t)
{
	const char *p = find_ci(line, strlen(line), "transmission time");
	struct tline l;
	char ms[32];

	if (!p)
		return;
	cut(t->line, sizeof(t->line), line);
	if (sentence(line, p, &l, ms, sizeof(ms))) {
		if (!s->bad++)
			cut(s->first_bad, sizeof(s->first_bad), line);
		return;
	}
	snprintf(t->ms, sizeof(t->ms), "%s", ms);
	if (l.total || find_ci(line, (size_t)(p - line), "total")) {
		s->totals++;
		if (!w->strict && size_form(l.size, w, total, 0))
			s->total_hit = l.size;
		return;
	}
	s->course++;
	s->last = l.size;
	s->sum += l.size;
	if (!l.alone && !s->course_not_alone++)
		cut(s->first_around, sizeof(s->first_around), line);
}

static void verdict(struct seen *s, const struct timeline_want *w, uint64_t total,
		    struct timeline *t)
{
	int form = 0;

	if (s->course) {
		form = size_form(s->last, w, total, 0);
		if (!form)
			form = size_form(s->sum, w, total, 0);
		if (!form)
			form = size_form(s->last, w, total, 1);
	}
	if (w->strict && s->course_not_alone) {
		snprintf(t->why, sizeof(t->why),
			 "time line not alone on its line (strict_time_line): '%s'",
			 s->first_around);
		return;
	}
	if (!form && s->total_hit)
		form = size_form(s->total_hit, w, total, 0);
	if (!form || (w->strict && form == 2)) {
		snprintf(t->why, sizeof(t->why), "time line says %llu bytes; the files hold %llu%s",
			 (unsigned long long)s->last, (unsigned long long)total,
			 w->strict && form == 2 ? " (strict_time_line: not their size / 8)" : "");
		return;
	}
	t->pass = 1;
	if (s->course_not_alone || (!s->course && s->totals))
		t->form = form == 2 ? "prefixed+size/8" : "prefixed";
	else
		t->form = form == 2 ? "size/8" : "strict";
}

void timeline_judge(const char *out, size_t len, const struct timeline_want *w,
		    struct timeline *t)
{
	struct seen s = { 0 };
	uint64_t total = 0;
	const char *p = out, *end = out + len;
	char line[1024];
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < w->nfiles; i++)
		total += w->sizes[i];
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		memcpy(line, p, n);
		line[n] = '\0';
		text_clean(line, n);
		take(line, &s, w, total, t);
		p = nl ? nl + 1 : end;
	}
	if (!s.course && !s.totals && !s.bad) {
		snprintf(t->why, sizeof(t->why), "no 'Transmission time' line in its output");
	} else if (!s.course && !s.totals) {
		snprintf(t->why, sizeof(t->why), "malformed time line: '%s'", s.first_bad);
	} else if (!s.course && (w->strict || !s.total_hit)) {
		snprintf(t->why, sizeof(t->why), "no course time line with the files' size (%llu bytes)",
			 (unsigned long long)total);
	} else {
		verdict(&s, w, total, t);
	}
}
