// SPDX-License-Identifier: GPL-2.0
#include "docout.h"
#include "html.h"
#include "util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A Markdown table cell: a '|' would end it, a newline the row. */
static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else
			fputc(*s == '\n' ? ' ' : *s, f);
	}
}

static void end_list(struct doc *d)
{
	if (!d->in_list)
		return;
	fputs(d->fmt == DOC_HTML ? "</ul>\n" : "\n", d->f);
	d->in_list = 0;
}

void doc_begin(struct doc *d, const char *title)
{
	if (d->fmt == DOC_MD) {
		fprintf(d->f, "# %s\n\n", title);
		return;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n<title>", d->f);
	html_put_dq(d->f, title);
	fputs("</title>\n<style>\n"
	      "body { font-family: sans-serif; max-width: 75em; margin: auto; }\n"
	      "table { border-collapse: collapse; margin: 1em 0; }\n"
	      "th, td { border: 1px solid #999; padding: 2px 6px; }\n"
	      "td.r { text-align: right; }\n"
	      "pre { background: #f4f4f4; padding: 0.5em; overflow-x: auto; }\n"
	      "img { max-width: 100%; }\n"
	      "</style>\n</head>\n<body>\n<h1>", d->f);
	html_put_dq(d->f, title);
	fputs("</h1>\n", d->f);
}

void doc_heading(struct doc *d, int level, const char *text)
{
	end_list(d);
	if (d->fmt == DOC_MD) {
		fprintf(d->f, "%.*s %s\n\n", level, "######", text);
		return;
	}
	fprintf(d->f, "<h%d>", level);
	html_put_dq(d->f, text);
	fprintf(d->f, "</h%d>\n", level);
}

static void vtext(struct doc *d, const char *open, const char *close,
		  const char *fmt, va_list ap)
{
	char *s = xvasprintf(fmt, ap);

	fputs(open, d->f);
	if (d->fmt == DOC_HTML)
		html_put_dq(d->f, s);
	else
		fputs(s, d->f);
	fputs(close, d->f);
	free(s);
}

void doc_para(struct doc *d, const char *fmt, ...)
{
	va_list ap;

	end_list(d);
	va_start(ap, fmt);
	if (d->fmt == DOC_HTML)
		vtext(d, "<p>", "</p>\n", fmt, ap);
	else
		vtext(d, "", "\n\n", fmt, ap);
	va_end(ap);
}

void doc_item(struct doc *d, const char *fmt, ...)
{
	va_list ap;

	if (!d->in_list && d->fmt == DOC_HTML)
		fputs("<ul>\n", d->f);
	d->in_list = 1;
	va_start(ap, fmt);
	if (d->fmt == DOC_HTML)
		vtext(d, "<li>", "</li>\n", fmt, ap);
	else
		vtext(d, "- ", "\n", fmt, ap);
	va_end(ap);
}

void doc_pre(struct doc *d, const char *text)
{
	end_list(d);
	if (d->fmt == DOC_MD) {
		fprintf(d->f, "```\n%s%s```\n\n", text,
			text[0] && text[strlen(text) - 1] == '\n' ? "" : "\n");
		return;
	}
	fputs("<pre>", d->f);
	html_put_dq(d->f, text);
	fputs("</pre>\n", d->f);
}

void doc_table(struct doc *d, size_t ncols, const char *const *header,
	       const char *align)
{
	size_t i;

	end_list(d);
	d->ncols = ncols;
	if (d->fmt == DOC_HTML) {
		fputs("<table>\n<tr>", d->f);
		for (i = 0; i < ncols; i++) {
			fputs("<th>", d->f);
			html_put_dq(d->f, header[i]);
			fputs("</th>", d->f);
		}
		fputs("</tr>\n", d->f);
		return;
	}
	for (i = 0; i < ncols; i++) {
		fputs("| ", d->f);
		md_cell(d->f, header[i]);
		fputc(' ', d->f);
	}
	fputs("|\n", d->f);
	for (i = 0; i < ncols; i++)
		fputs(align && align[i] == 'r' ? "|---:" : "|---", d->f);
	fputs("|\n", d->f);
	/* The alignment of HTML cells comes from the same letters. */
	(void)align;
}

void doc_row(struct doc *d, const char *const *cells)
{
	size_t i;

	if (d->fmt == DOC_HTML) {
		fputs("<tr>", d->f);
		for (i = 0; i < d->ncols; i++) {
			const char *c = cells[i] ? cells[i] : "";
			char *end;

			strtod(c, &end);
			fputs(*c && !*end ? "<td class=\"r\">" : "<td>", d->f);
			html_put_dq(d->f, c);
			fputs("</td>", d->f);
		}
		fputs("</tr>\n", d->f);
		return;
	}
	for (i = 0; i < d->ncols; i++) {
		fputs("| ", d->f);
		md_cell(d->f, cells[i] ? cells[i] : "");
		fputc(' ', d->f);
	}
	fputs("|\n", d->f);
}

void doc_table_end(struct doc *d)
{
	fputs(d->fmt == DOC_HTML ? "</table>\n" : "\n", d->f);
	d->ncols = 0;
}

static void base64(FILE *out, const unsigned char *p, size_t n)
{
	static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				"abcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i;

	for (i = 0; i + 2 < n; i += 3) {
		fputc(a[p[i] >> 2], out);
		fputc(a[(p[i] & 3) << 4 | p[i + 1] >> 4], out);
		fputc(a[(p[i + 1] & 15) << 2 | p[i + 2] >> 6], out);
		fputc(a[p[i + 2] & 63], out);
	}
	if (n - i == 1)
		fprintf(out, "%c%c==", a[p[i] >> 2], a[(p[i] & 3) << 4]);
	else if (n - i == 2)
		fprintf(out, "%c%c%c=", a[p[i] >> 2],
			a[(p[i] & 3) << 4 | p[i + 1] >> 4],
			a[(p[i + 1] & 15) << 2]);
}

/* The whole file, or NULL. */
static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f)
		return NULL;
	do {
		if (*len == cap) {
			cap = cap ? 2 * cap : 1 << 16;
			buf = xreallocarray(buf, cap, 1);
		}
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n);
	if (ferror(f) || !*len) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

int doc_plot(struct doc *d, const char *file, const char *caption)
{
	char *path = xasprintf("%s/%s", d->dir ? d->dir : ".", file);
	const char *dot = strrchr(file, '.');
	int svg = dot && !strcmp(dot, ".svg");
	unsigned char *data = NULL;
	size_t len = 0;

	end_list(d);
	data = slurp(path, &len);
	free(path);
	if (!data) {
		doc_para(d, "(plot %s: not drawn; gnuplot missing or the "
			 "experiment did not run)", file);
		return -1;
	}
	if (d->fmt == DOC_MD) {
		fprintf(d->f, "![%s](%s)\n\n", caption, file);
	} else {
		fprintf(d->f, "<figure>\n<img alt=\"");
		html_put_dq(d->f, caption);
		fprintf(d->f, "\" src=\"data:image/%s;base64,",
			svg ? "svg+xml" : "png");
		base64(d->f, data, len);
		fputs("\">\n<figcaption>", d->f);
		html_put_dq(d->f, caption);
		fputs("</figcaption>\n</figure>\n", d->f);
	}
	free(data);
	return 0;
}

int doc_end(struct doc *d)
{
	end_list(d);
	if (d->fmt == DOC_HTML)
		fputs("</body>\n</html>\n", d->f);
	return ferror(d->f) ? -1 : 0;
}
