// SPDX-License-Identifier: GPL-2.0
#include "verify.h"
#include "share.h"
#include "sha256.h"
#include "slurp.h"
#include "util.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct vstate {
	struct sha256 all;
	unsigned int bad, missing;
};

/* Where got (n bytes) first differs from the data file, in words. */
static void first_difference(const char *data, const unsigned char *got, uint64_t n,
			     char *out, size_t len)
{
	static unsigned char buf[65536];
	uint64_t at = 0;
	ssize_t r;
	int fd = open(data, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	snprintf(out, len, "the input cannot be read");
	if (fd < 0)
		return;
	while ((r = read_full(fd, buf, sizeof(buf))) > 0) {
		ssize_t i;

		for (i = 0; i < r && at < n; i++, at++) {
			if (buf[i] != got[at]) {
				snprintf(out, len, "first difference at byte %" PRIu64, at + 1);
				close(fd);
				return;
			}
		}
		if (at == n)
			break;
	}
	close(fd);
	snprintf(out, len, "equal up to the shorter one");
}

/* Read the output NAME (at most size + 1 bytes); its verdict line, or none. */
static void one_file(const char *share, const char *dir, const char *data,
		     const char *name, uint64_t size, const char *hex, struct vstate *v)
{
	unsigned char *got, sum[SHA256_LEN];
	char path[4096], why[SHARE_WHY_MAX], diff[96], h[2 * SHA256_LEN + 1];
	ssize_t n;
	int fd, i;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = share_open(share, path, why, sizeof(why));
	if (fd < 0) {
		if (++v->bad <= 3)
			printf("missing output %s\n", name);
		v->missing++;
		return;
	}
	got = xmalloc(size + 1);
	n = read_full(fd, got, size + 1);
	close(fd);
	if (n < 0)
		n = 0;
	sha256(got, (size_t)n, sum);
	sha256_update(&v->all, got, (size_t)n);
	for (i = 0; i < SHA256_LEN; i++)
		snprintf(h + 2 * i, 3, "%02x", sum[i]);
	if (strcmp(h, hex) && ++v->bad <= 3) {
		snprintf(path, sizeof(path), "%s/%s", data, name);
		first_difference(path, got, (uint64_t)n, diff, sizeof(diff));
		printf("wrong output %s: %zd bytes, want %" PRIu64 ", %s\n", name, n, size, diff);
	}
	free(got);
}

/* The want file's lines through one_file. */
static int each_file(FILE *w, char **argv, struct vstate *v)
{
	char name[256], hex[65];
	uint64_t size;
	int k;

	while ((k = fscanf(w, "%255s %" SCNu64 " %64s", name, &size, hex)) == 3) {
		if (strchr(name, '/') || !strcmp(name, "..") || size > (1ull << 36))
			return -1;
		one_file(argv[1], argv[2], argv[4], name, size, hex, v);
	}
	return k == EOF ? 0 : -1;
}

int verify_main(int argc, char **argv)
{
	struct vstate v = { .bad = 0 };
	unsigned char all[SHA256_LEN];
	char *want_sum, wsum[256];
	FILE *w, *s;
	int i;

	if (argc != 6) {
		msg("usage: gradeclass verify-outputs SHARE DIR WANT DATA SUM");
		return EXIT_USAGE;
	}
	w = fopen(argv[3], "re");
	if (!w) {
		msg("%s: %s", argv[3], strerror(errno));
		return EXIT_USAGE;
	}
	sha256_init(&v.all);
	i = each_file(w, argv, &v);
	fclose(w);
	if (i) {
		msg("%s: not a data set's list", argv[3]);
		return EXIT_USAGE;
	}
	if (v.bad > 3)
		printf("and %u more output files missing or wrong\n", v.bad - 3);
	if (!v.bad)
		puts("pass");
	snprintf(wsum, sizeof(wsum), "%s.sum", argv[3]);
	want_sum = slurp(wsum, 64, NULL);
	sha256_final(&v.all, all);
	s = fopen(argv[5], "we");
	if (!s) {
		free(want_sum);
		msg("%s: %s", argv[5], strerror(errno));
		return EXIT_USAGE;
	}
	fprintf(s, "%.16s ", want_sum ? want_sum : "");
	for (i = 0; !v.missing && i < 8; i++)
		fprintf(s, "%02x", all[i]);
	fputc('\n', s);
	free(want_sum);
	return fclose(s) ? EXIT_USAGE : EXIT_OK;
}
