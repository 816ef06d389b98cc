/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text into HTML: the characters that would end an element's text or an
 * attribute's value, or start markup, written as entities.
 */
#ifndef SYNCDEV_HTML_H
#define SYNCDEV_HTML_H

#include <stddef.h>
#include <stdio.h>

/*
 * The first n bytes of s with & < > " ' as entities: safe in an element
 * and in an attribute quoted either way.
 */
void html_put_n(FILE *f, const char *s, size_t n);
/* html_put_n of all of s. */
void html_put(FILE *f, const char *s);
/*
 * s with & < > " as entities and ' as it is: safe in an element and in an
 * attribute in double quotes, the only kind a page written this way has.
 */
void html_put_dq(FILE *f, const char *s);

#endif
