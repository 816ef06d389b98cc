/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The JSON the programs write and read back: strings escaped as RFC 8259
 * says (quote, backslash and control characters), and a document that
 * opens with its format's version, {"format_version":N, ...}, so that a
 * reader refuses a document of another format by name instead of
 * misreading it.  Only what these writers produce is read: the version
 * first, strings with \" \\ \n \t and \uXXXX (below 0x100) escapes.
 */
#ifndef SYNCDEV_JSON_H
#define SYNCDEV_JSON_H

#include <stdio.h>

/* s as a JSON string, quotes included. */
void json_put_string(FILE *f, const char *s);
/* s as json_put_string writes it, or null when s is NULL or empty. */
void json_put_string_or_null(FILE *f, const char *s);
/* s as a JSON number when it is one (csv_is_number), else null. */
void json_put_number_or_null(FILE *f, const char *s);
/* p past JSON white space. */
const char *json_skip_ws(const char *p);
/*
 * The JSON string at p, unescaped, into a new buffer *out; the position
 * after its closing quote, or NULL (nothing allocated) when p holds none.
 */
const char *json_get_string(const char *p, char **out);
/*
 * N of a document that opens {"format_version":N followed by ',' or '}',
 * N a whole number up to 1000000; -1 for anything else.
 */
int json_format_version(const char *doc);

#endif
