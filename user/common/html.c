// SPDX-License-Identifier: GPL-2.0
#include "html.h"

#include <string.h>

/* The first n bytes of s, ' as an entity too when apos. */
static void put(FILE *f, const char *s, size_t n, int apos)
{
	static const char *const entities[] = {
		"&amp;", "&lt;", "&gt;", "&quot;", "&#x27;",
	};
	const char *special = apos ? "&<>\"'" : "&<>\"";
	const char *p;
	size_t i;

	for (i = 0; i < n; i++) {
		p = s[i] ? strchr(special, s[i]) : NULL;
		if (p)
			fputs(entities[p - special], f);
		else
			fputc(s[i], f);
	}
}

void html_put_n(FILE *f, const char *s, size_t n)
{
	put(f, s, n, 1);
}

void html_put(FILE *f, const char *s)
{
	put(f, s, strlen(s), 1);
}

void html_put_dq(FILE *f, const char *s)
{
	put(f, s, strlen(s), 0);
}
