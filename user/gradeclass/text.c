// SPDX-License-Identifier: GPL-2.0
#include "text.h"

#include <string.h>

size_t utf8_prefix(const char *s, size_t max)
{
	size_t i, chars = 0;

	for (i = 0; s[i]; i++) {
		/* A byte 10xxxxxx continues the character before it. */
		if (((unsigned char)s[i] & 0xc0) == 0x80)
			continue;
		if (chars == max)
			break;
		chars++;
	}
	return i;
}

void html_put_cut(FILE *f, const char *s, size_t max)
{
	html_put_n(f, s, utf8_prefix(s, max));
}

void md_put(FILE *f, const char *s, size_t max)
{
	size_t i, n = utf8_prefix(s, max);

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '|')
			fputc('/', f);
		else if (c < 0x20 || c == 0x7f)
			fputc(' ', f);
		else if (strchr("<>&", c))
			html_put_n(f, s + i, 1);
		else if (strchr("\\`[]", c))
			fprintf(f, "\\%c", c);
		else
			fputc(c, f);
	}
}

void url_put(FILE *f, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~", *p))
			fputc(*p, f);
		else
			fprintf(f, "%%%02X", *p);
	}
}
