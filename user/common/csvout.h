/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One CSV cell as every program writes it: RFC 4180 quoting (a cell with
 * a comma, a quote, a CR or an LF is quoted, quotes doubled), and a cell
 * a spreadsheet would run as a formula neutralised as OWASP's
 * "CSV Injection" page says: a cell that starts with '=', '+', '-', '@',
 * a tab or a CR gets a single quote before it, inside quotes.  A plain
 * decimal number ("-3", "-0.25", "-1.5e-05") is left as it is: a
 * spreadsheet reads it as that number, never as a formula, and negative
 * figures stay numbers for whoever reads the file back.
 */
#ifndef SYNCDEV_CSVOUT_H
#define SYNCDEV_CSVOUT_H

#include <stdio.h>

/*
 * 1 when s is an optional '-', digits, optionally '.' and digits, and
 * optionally an exponent (e or E, an optional sign, digits).
 */
int csv_is_number(const char *s);
/* 1 when s starts with = + - @ TAB or CR and is not such a number. */
int csv_is_formula(const char *s);
/*
 * 1 when csv_put writes s with a quote before it: s is a formula, or
 * single quotes and a formula ("'=x" is written "''=x"), so that a reader
 * that drops the one quote of a quoted cell whose rest csv_neutralised
 * gets back exactly what was written.
 */
int csv_neutralised(const char *s);
/* s as one cell (no separator). */
void csv_put(FILE *f, const char *s);

#endif
