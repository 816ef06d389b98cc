/* SPDX-License-Identifier: GPL-2.0 */
/* The style sheet and script inlined in report.html. */
#ifndef GRADECLASS_HTML_ASSETS_H
#define GRADECLASS_HTML_ASSETS_H

extern const char html_style[];
extern const char html_script[];

#endif
