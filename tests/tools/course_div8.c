// SPDX-License-Identifier: GPL-2.0
/*
 * course_div8: course_page with the time line of the course's starter
 * master.c and slave.c, which students kept: "File size: %d bytes" of the
 * bytes divided by 8.  Every byte arrives; only the line differs.
 *
 *	course_div8 [master] N FILE... fcntl|mmap
 *	course_div8 [slave] N FILE... fcntl|mmap a.b.c.d[:port]
 */
#define COURSE_PAGE_SIZE_DIV 8
#define COURSE_PAGE_PREFIXED 0
#include "course_page.c"
