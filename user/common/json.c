// SPDX-License-Identifier: GPL-2.0
#include "json.h"
#include "csvout.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void json_put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void json_put_string_or_null(FILE *f, const char *s)
{
	if (s && *s)
		json_put_string(f, s);
	else
		fputs("null", f);
}

void json_put_number_or_null(FILE *f, const char *s)
{
	const char *d = s ? s + (*s == '-') : NULL;

	/* A CSV number is a JSON one unless it has a leading zero ("07"). */
	if (s && csv_is_number(s) && !(d[0] == '0' && d[1] >= '0' && d[1] <= '9'))
		fputs(s, f);
	else
		fputs("null", f);
}

const char *json_skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
		p++;
	return p;
}

const char *json_get_string(const char *p, char **out)
{
	char *buf, *o;

	if (*p++ != '"')
		return NULL;
	buf = xmalloc(strlen(p) + 1);
	for (o = buf; *p && *p != '"'; p++) {
		if (*p != '\\') {
			*o++ = *p;
		} else if (p[1] == 'u' && strlen(p) >= 6) {
			*o++ = (char)strtol((char[]){ p[4], p[5], 0 }, NULL, 16);
			p += 5;
		} else if (p[1]) {
			p++;
			*o++ = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
		}
	}
	*o = 0;
	if (*p != '"') {
		free(buf);
		return NULL;
	}
	*out = buf;
	return p + 1;
}

int json_format_version(const char *doc)
{
	static const char key[] = "\"format_version\"";
	const char *p = json_skip_ws(doc);
	char *end;
	long v;

	if (*p != '{')
		return -1;
	p = json_skip_ws(p + 1);
	if (strncmp(p, key, sizeof(key) - 1))
		return -1;
	p = json_skip_ws(p + sizeof(key) - 1);
	if (*p != ':')
		return -1;
	p = json_skip_ws(p + 1);
	if (*p < '0' || *p > '9')
		return -1;
	v = strtol(p, &end, 10);
	p = json_skip_ws(end);
	if ((*p != ',' && *p != '}') || v > 1000000)
		return -1;
	return (int)v;
}
