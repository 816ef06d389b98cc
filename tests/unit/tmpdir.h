/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A scratch directory for the unit tests that make files: tmpdir_make()
 * creates it, path() names a file in it, tmpdir_remove() empties and
 * removes it; and small helpers to make and compare files.
 */
#ifndef SYNCDEV_TEST_TMPDIR_H
#define SYNCDEV_TEST_TMPDIR_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/syncdev-test-XXXXXX";


static inline char *path(const char *name)
{
	static char buf[4][320];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
	return buf[i];
}

static inline void make_file(const char *name, size_t size, unsigned int seed)
{
	unsigned char *d = malloc(size + 1);
	FILE *f = fopen(path(name), "w");
	size_t i;

	for (i = 0; i < size; i++) {
		seed = seed * 1103515245u + 12345u;
		d[i] = (unsigned char)(seed >> 16);
	}
	fwrite(d, 1, size, f);
	fclose(f);
	free(d);
}

static inline int same_file(const char *a, const char *b)
{
	FILE *fa = fopen(a, "r"), *fb = fopen(b, "r");
	int ca, cb, same = fa && fb;

	while (same) {
		ca = getc(fa);
		cb = getc(fb);
		same = ca == cb;
		if (ca == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

static inline int file_is(const char *name, const char *content)
{
	char buf[64];
	FILE *f = fopen(name, "r");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return n == strlen(content) && !memcmp(buf, content, n);
}

/* Entries of the test directory whose name contains s. */
static inline int count_entries(const char *s)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while ((e = readdir(d)))
		n += strstr(e->d_name, s) != NULL;
	closedir(d);
	return n;
}

static inline void remove_outputs(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "out", 3) ||
		    strstr(e->d_name, ".syncdev-"))
			unlink(path(e->d_name));
	closedir(d);
}

/* The whole text of a file (at most 4 KiB), for checking messages. */
static inline const char *slurp(const char *name)
{
	static char buf[4096];
	FILE *f = fopen(name, "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

static inline int tmpdir_make(void)
{
	if (mkdtemp(dir))
		return 0;
	perror("mkdtemp");
	return -1;
}

static inline void tmpdir_remove(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while ((e = readdir(d)))
		unlink(path(e->d_name));
	closedir(d);
	rmdir(dir);
}

#endif
