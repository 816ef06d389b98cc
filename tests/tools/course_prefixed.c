// SPDX-License-Identifier: GPL-2.0
/*
 * course_prefixed: course_page with its time line after a "Master: " or
 * "Slave: ", as many students printed the course's sentence.
 *
 *	course_prefixed [master] N FILE... fcntl|mmap
 *	course_prefixed [slave] N FILE... fcntl|mmap a.b.c.d[:port]
 */
#define COURSE_PAGE_SIZE_DIV 1
#define COURSE_PAGE_PREFIXED 1
#include "course_page.c"
