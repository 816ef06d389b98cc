/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text into the reports: cut at a number of characters (UTF-8 code
 * points, never inside one), escaped for HTML (user/common's html.h),
 * flattened for a Markdown table cell, encoded for a link.
 */
#ifndef GRADECLASS_TEXT_H
#define GRADECLASS_TEXT_H

#include "html.h"

#include <stddef.h>
#include <stdio.h>

/* The bytes of s's first max characters (all of s when shorter). */
size_t utf8_prefix(const char *s, size_t max);

/* html_put of s's first max characters. */
void html_put_cut(FILE *f, const char *s, size_t max);

/*
 * s's first max characters for a Markdown table cell or list item, as
 * text only: '|' as '/' (no cell ends early), a control character (CR,
 * LF, tab, ...) as a space (no row or line ends early), < > & as
 * entities (no HTML), and \ ` [ ] escaped with a backslash (no code
 * span, link or image).
 */
void md_put(FILE *f, const char *s, size_t max);

/*
 * s as a relative URL path segment: bytes other than letters, digits and
 * - . _ ~ as %XX, so that no name reads as a scheme, a query or a
 * fragment, or leaves its attribute.
 */
void url_put(FILE *f, const char *s);

#endif
