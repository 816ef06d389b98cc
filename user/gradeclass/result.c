// SPDX-License-Identifier: GPL-2.0
#include "result.h"
#include "slurp.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int criterion_index(const char *s)
{
	int i;

	for (i = 0; i < NCRIT; i++)
		if (!strcmp(s, criteria[i]))
			return i;
	return -1;
}

/* 1 when s is digits only (and not empty). */
static int is_uint(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* 1 when s is digits, optionally '.' and digits. */
static int is_decimal(const char *s)
{
	const char *dot = strchr(s, '.');
	char head[32];

	if (!dot)
		return is_uint(s);
	if ((size_t)(dot - s) >= sizeof(head))
		return 0;
	memcpy(head, s, (size_t)(dot - s));
	head[dot - s] = '\0';
	return is_uint(head) && is_uint(dot + 1);
}

/* A control character in the line's n bytes (C0, DEL, C1 in UTF-8). */
static int has_control(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f)
			return 1;
		if (c == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 &&
		    (unsigned char)s[i + 1] <= 0x9f)
			return 1;
	}
	return 0;
}

/* Set a single-valued text key once; a second time is malformed. */
static int set_once(char *dst, const char *v)
{
	if (*dst || strlen(v) >= RESULT_VALUE_MAX)
		return -1;
	snprintf(dst, RESULT_VALUE_MAX, "%s", v);
	return 0;
}

static int set_number(uint64_t *dst, int *seen, const char *v)
{
	if (*seen || !is_uint(v) || strlen(v) > 19)
		return -1;
	*dst = strtoull(v, NULL, 10);
	*seen = 1;
	return 0;
}

static void add_reason(struct result *r, const char *v)
{
	size_t have = r->reasons ? strlen(r->reasons) : 0;
	size_t n = strlen(v);

	r->reasons = xreallocarray(r->reasons, have + n + 3, 1);
	if (have)
		memcpy(r->reasons + have, "; ", 2), have += 2;
	memcpy(r->reasons + have, v, n + 1);
}

/* One "key=value" line; its problem, or NULL. */
static const char *take_line(struct result *r, const char *k, const char *v,
			     int seen[4])
{
	int c;

	if (!strcmp(k, "check")) {
		c = criterion_index(v);
		if (c < 0)
			return "check of an unknown criterion";
		r->checks |= 1u << c;
	} else if (!strcmp(k, "reason")) {
		add_reason(r, v);
	} else if (!strncmp(k, "why.", 4)) {
		c = criterion_index(k + 4);
		if (c < 0)
			return "why of an unknown criterion";
		if (!r->whys[c])
			r->whys[c] = xstrdup(v);
	} else if (!strcmp(k, "rc")) {
		if ((strcmp(v, "none") && !is_uint(v)) || set_once(r->rc, v))
			return "bad or repeated rc";
	} else if (!strcmp(k, "secs")) {
		if (!is_decimal(v) || set_once(r->secs, v))
			return "bad or repeated secs";
	} else if (!strcmp(k, "pages")) {
		if (!is_uint(v) || set_once(r->pages, v))
			return "bad or repeated pages";
	} else if (!strcmp(k, "status")) {
		if ((strcmp(v, "pass") && strcmp(v, "fail")) || set_once(r->status, v))
			return "bad or repeated status";
	} else if (!strcmp(k, "bytes")) {
		return set_number(&r->bytes, &seen[0], v) ? "bad or repeated bytes" : NULL;
	} else if (!strcmp(k, "files")) {
		return set_number(&r->files, &seen[1], v) ? "bad or repeated files" : NULL;
	} else if (!strcmp(k, "device_bytes")) {
		return set_number(&r->device_bytes, &r->has_device_bytes, v) ?
			"bad or repeated device_bytes" : NULL;
	} else {
		return "unknown key";
	}
	return NULL;
}

static void malformed(struct result *r, size_t line, const char *why)
{
	r->state = RES_MALFORMED;
	if (line)
		snprintf(r->why, sizeof(r->why), "line %zu: %s", line, why);
	else
		snprintf(r->why, sizeof(r->why), "%s", why);
}

void result_parse(const char *text, size_t len, struct result *r)
{
	const char *p = text, *end = text + len;
	char buf[RESULT_LINE_MAX + 1], *eq;
	int seen[4] = { 0 }, ended = 0;
	size_t line = 0;

	memset(r, 0, sizeof(*r));
	r->state = RES_OK;
	if (!len)
		return malformed(r, 0, "empty");
	while (p < end && r->state == RES_OK) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *why;
		size_t n = (size_t)((nl ? nl : end) - p);

		line++;
		if (ended)
			return malformed(r, line, "a line after end=1");
		if (n > RESULT_LINE_MAX)
			return malformed(r, line, "longer than 1000 bytes");
		if (has_control(p, n))
			return malformed(r, line, "a control character");
		memcpy(buf, p, n);
		buf[n] = '\0';
		p = nl ? nl + 1 : end;
		eq = strchr(buf, '=');
		if (!eq || eq == buf)
			return malformed(r, line, "not key=value");
		*eq = '\0';
		if (!strcmp(buf, "end")) {
			if (strcmp(eq + 1, "1"))
				return malformed(r, line, "end is not 1");
			ended = 1;
			continue;
		}
		why = take_line(r, buf, eq + 1, seen);
		if (why)
			malformed(r, line, why);
	}
	if (r->state == RES_OK && !ended)
		malformed(r, 0, "no end=1 line (incomplete)");
}

void result_load(const char *path, struct result *r)
{
	size_t len = 0;
	char *text = slurp(path, RESULT_FILE_MAX, &len);

	if (!text) {
		memset(r, 0, sizeof(*r));
		r->state = RES_MISSING;
		return;
	}
	result_parse(text, len, r);
	free(text);
}

void result_free(struct result *r)
{
	int i;

	free(r->reasons);
	for (i = 0; i < NCRIT; i++)
		free(r->whys[i]);
	memset(r, 0, sizeof(*r));
}
