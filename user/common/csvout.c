// SPDX-License-Identifier: GPL-2.0
#include "csvout.h"

#include <string.h>

/* The digits at *p, past them; 0 when there are none. */
static size_t digits(const char **p)
{
	size_t n = strspn(*p, "0123456789");

	*p += n;
	return n;
}

int csv_is_number(const char *s)
{
	const char *p = s + (*s == '-');

	if (!digits(&p))
		return 0;
	if (*p == '.') {
		p++;
		if (!digits(&p))
			return 0;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		p += *p == '-' || *p == '+';
		if (!digits(&p))
			return 0;
	}
	return !*p;
}

int csv_is_formula(const char *s)
{
	return *s && strchr("=+-@\t\r", *s) && !csv_is_number(s);
}

int csv_neutralised(const char *s)
{
	return csv_is_formula(s + strspn(s, "'"));
}

void csv_put(FILE *f, const char *s)
{
	int formula = csv_neutralised(s);
	const char *p;

	if (!formula && !strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	if (formula)
		fputc('\'', f);
	for (p = s; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}
