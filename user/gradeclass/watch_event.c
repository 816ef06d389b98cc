// SPDX-License-Identifier: GPL-2.0
/*
 * The control channel's lines: "begin K", "run K R", "end K", "done",
 * each exactly so (one space between fields, decimal numbers without a
 * leading zero), accepted only in the order a battery makes them.
 */
#include "watch.h"

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

static enum watch_kind accept_begin(struct watch_order *o, unsigned k)
{
	if (k <= o->begun || k > o->cases)
		return WATCH_NONE;
	o->begun = k;
	o->run = 1;
	o->ended = 0;
	return WATCH_BEGIN;
}

static enum watch_kind accept_run(struct watch_order *o, unsigned k, unsigned r)
{
	if (!o->begun || k != o->begun || o->ended || r <= o->run ||
	    r > o->files[k - 1])
		return WATCH_NONE;
	o->run = r;
	return WATCH_RUN;
}

static enum watch_kind accept_end(struct watch_order *o, unsigned k)
{
	if (!o->begun || k != o->begun || o->ended)
		return WATCH_NONE;
	o->ended = 1;
	return WATCH_END;
}

enum watch_kind watch_accept(struct watch_order *o, const char *line,
			     size_t len, unsigned *k, unsigned *r)
{
	*k = 0;
	*r = 0;
	if (len && line[len - 1] == '\r')
		len--;
	if (o->done || len > WATCH_LINE_MAX)
		return WATCH_NONE;
	if (len == 4 && !memcmp(line, "done", 4)) {
		o->done = 1;
		return WATCH_DONE;
	}
	if (fields(line, len, "begin", 1, k, r))
		return accept_begin(o, *k);
	if (fields(line, len, "run", 2, k, r))
		return accept_run(o, *k, *r);
	if (fields(line, len, "end", 1, k, r))
		return accept_end(o, *k);
	*k = 0;
	return WATCH_NONE;
}
