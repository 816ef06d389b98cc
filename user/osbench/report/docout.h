/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A document in Markdown or as one self-contained HTML page, written by
 * the same calls: headings, paragraphs, lists, preformatted blocks,
 * tables and plots.  In HTML every text is escaped (user/common's
 * html.h) and a plot (an SVG or
 * PNG file) is embedded as a data: URI, so the page needs nothing beside
 * it; in Markdown a plot is a link to the file.
 *
 *	struct doc d = { .f = out, .fmt = DOC_HTML, .dir = "rep" };
 *	doc_begin(&d, "Report");
 *	doc_heading(&d, 2, "Summary");
 *	doc_table(&d, 3, header, "lrr");  doc_row(&d, cells); ...
 *	doc_table_end(&d);
 *	doc_plot(&d, "memlat.svg", "Memory latency");
 *	doc_end(&d);
 */
#ifndef SYNCDEV_DOCOUT_H
#define SYNCDEV_DOCOUT_H

#include <stddef.h>
#include <stdio.h>

enum doc_format { DOC_MD, DOC_HTML };

struct doc {
	FILE *f;
	enum doc_format fmt;
	const char *dir;	/* where plot files are found (NULL: ".") */
	size_t ncols;		/* of the open table */
	int in_list;
};

void doc_begin(struct doc *d, const char *title);
void doc_heading(struct doc *d, int level, const char *text);
void doc_para(struct doc *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* One item of a bulleted list; the list ends at the next other call. */
void doc_item(struct doc *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void doc_pre(struct doc *d, const char *text);
/* A table: align holds one letter per column, 'l' or 'r'. */
void doc_table(struct doc *d, size_t ncols, const char *const *header,
	       const char *align);
void doc_row(struct doc *d, const char *const *cells);
void doc_table_end(struct doc *d);
/*
 * The picture in file (relative to dir), with a caption.  Returns 0, or
 * -1 when the file cannot be read (a paragraph says so instead).
 */
int doc_plot(struct doc *d, const char *file, const char *caption);
/* Closes the page; 0, or -1 when a write failed. */
int doc_end(struct doc *d);

#endif
