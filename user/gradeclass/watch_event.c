// SPDX-License-Identifier: GPL-2.0
/*
 * The control channel's lines: "begin K", "run K R", "end K", "done" and,
 * between two guests, "ready K", "listening K R", "status K R ok|failed",
 * each exactly so (one space between fields, decimal numbers without a
 * leading zero), accepted only in the order a battery makes them.
 */
#include "watch.h"

#include <stdio.h>
#include <string.h>

/*
 * A number of 1 to 9 digits, not starting with 0, at s[*i]; *i moves past
 * it.  0 when there is none (0 itself is never a valid K or R).
 */
static unsigned take_number(const char *s, size_t len, size_t *i)
{
	unsigned v = 0, digits = 0;

	if (*i >= len || s[*i] < '1' || s[*i] > '9')
		return 0;
	while (*i < len && s[*i] >= '0' && s[*i] <= '9') {
		if (++digits > 9)
			return 0;
		v = v * 10 + (unsigned)(s[*i] - '0');
		(*i)++;
	}
	return v;
}

/* Whether s[0..len) is word, a space and 1 or 2 numbers (n), nothing more. */
static int fields(const char *s, size_t len, const char *word, int n,
		  unsigned *a, unsigned *b)
{
	size_t w = strlen(word), i = w + 1;

	if (len <= i || memcmp(s, word, w) || s[w] != ' ')
		return 0;
	*a = take_number(s, len, &i);
	if (!*a)
		return 0;
	if (n == 2) {
		if (i >= len || s[i] != ' ')
			return 0;
		i++;
		*b = take_number(s, len, &i);
		if (!*b)
			return 0;
	}
	return i == len;
}

/* A new run (or case): nothing of it said yet. */
static void new_run(struct watch_order *o, unsigned run)
{
	o->run = run;
	o->listened = 0;
	o->stated = 0;
}

static enum watch_kind accept_begin(struct watch_order *o, unsigned k)
{
	if (k <= o->begun || k > o->cases)
		return WATCH_NONE;
	o->begun = k;
	o->ended = 0;
	o->ready = 0;
	new_run(o, 1);
	return WATCH_BEGIN;
}

/* Between two guests, a run or the end follows the last run's status. */
static int in_case(const struct watch_order *o, unsigned k)
{
	return o->begun && k == o->begun && !o->ended;
}

static enum watch_kind accept_run(struct watch_order *o, unsigned k, unsigned r)
{
	if (!in_case(o, k) || r <= o->run || r > o->files[k - 1] ||
	    (o->pair && !o->stated))
		return WATCH_NONE;
	new_run(o, r);
	return WATCH_RUN;
}

static enum watch_kind accept_end(struct watch_order *o, unsigned k)
{
	if (!in_case(o, k) || (o->pair && !o->stated))
		return WATCH_NONE;
	o->ended = 1;
	return WATCH_END;
}

static enum watch_kind accept_ready(struct watch_order *o, unsigned k)
{
	if (!o->pair || !in_case(o, k) || o->ready)
		return WATCH_NONE;
	o->ready = 1;
	return WATCH_READY;
}

static enum watch_kind accept_listening(struct watch_order *o, unsigned k, unsigned r)
{
	if (!o->pair || !in_case(o, k) || !o->ready || r != o->run || o->listened ||
	    o->stated)
		return WATCH_NONE;
	o->listened = 1;
	return WATCH_LISTENING;
}

static enum watch_kind accept_status(struct watch_order *o, unsigned k, unsigned r)
{
	if (!o->pair || !in_case(o, k) || !o->ready || r != o->run || o->stated)
		return WATCH_NONE;
	o->stated = 1;
	return WATCH_STATUS;
}

/*
 * "status K R ok" or "status K R failed": *failed set; 0 when the line is
 * not one.
 */
static int status_fields(const char *s, size_t len, unsigned *k, unsigned *r, int *failed)
{
	if (len > 3 && !memcmp(s + len - 3, " ok", 3)) {
		*failed = 0;
		return fields(s, len - 3, "status", 2, k, r);
	}
	if (len > 7 && !memcmp(s + len - 7, " failed", 7)) {
		*failed = 1;
		return fields(s, len - 7, "status", 2, k, r);
	}
	return 0;
}

static enum watch_kind accept_line(struct watch_order *o, const char *line, size_t len,
				   struct watch_event *e)
{
	if (len == 4 && !memcmp(line, "done", 4)) {
		o->done = 1;
		return WATCH_DONE;
	}
	if (fields(line, len, "begin", 1, &e->k, &e->r))
		return accept_begin(o, e->k);
	if (fields(line, len, "run", 2, &e->k, &e->r))
		return accept_run(o, e->k, e->r);
	if (fields(line, len, "end", 1, &e->k, &e->r))
		return accept_end(o, e->k);
	if (fields(line, len, "ready", 1, &e->k, &e->r))
		return accept_ready(o, e->k);
	if (fields(line, len, "listening", 2, &e->k, &e->r))
		return accept_listening(o, e->k, e->r);
	if (status_fields(line, len, &e->k, &e->r, &e->failed))
		return accept_status(o, e->k, e->r);
	return WATCH_NONE;
}

enum watch_kind watch_accept(struct watch_order *o, const char *line, size_t len,
			     struct watch_event *e)
{
	memset(e, 0, sizeof(*e));
	if (len && line[len - 1] == '\r')
		len--;
	if (o->done || len > WATCH_LINE_MAX)
		return WATCH_NONE;
	e->kind = accept_line(o, line, len, e);
	if (e->kind == WATCH_NONE)
		memset(e, 0, sizeof(*e));
	return e->kind;
}

int watch_format(const struct watch_event *e, char *buf, size_t size)
{
	switch (e->kind) {
	case WATCH_BEGIN:
		return snprintf(buf, size, "begin %u", e->k);
	case WATCH_RUN:
		return snprintf(buf, size, "run %u %u", e->k, e->r);
	case WATCH_END:
		return snprintf(buf, size, "end %u", e->k);
	case WATCH_DONE:
		return snprintf(buf, size, "done");
	case WATCH_READY:
		return snprintf(buf, size, "ready %u", e->k);
	case WATCH_LISTENING:
		return snprintf(buf, size, "listening %u %u", e->k, e->r);
	case WATCH_STATUS:
		return snprintf(buf, size, "status %u %u %s", e->k, e->r,
				e->failed ? "failed" : "ok");
	default:
		return snprintf(buf, size, "none");
	}
}
