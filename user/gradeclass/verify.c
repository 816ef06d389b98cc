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
	unsigned int bad, missing;
};

/*
 * Compare the output (fd, at most size + 1 bytes read) with the host's
 * data file, byte for byte: 1 equal, 0 different (*got: the bytes read,
 * *at: the first difference, 1-based, 0 when one is a prefix of the
 * other), -1 when the data file cannot be read.
 */
static int compare(int fd, const char *data, uint64_t size, uint64_t *got, uint64_t *at)
{
	static unsigned char a[65536], b[65536];
	int dfd = open(data, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ssize_t n, m = 0;

	*got = 0;
	*at = 0;
	if (dfd < 0)
		return -1;
	do {
		size_t want = sizeof(a);

		if (size + 1 - *got < want)
			want = (size_t)(size + 1 - *got);
		n = want ? read_full(fd, a, want) : 0;
		m = n > 0 ? read_full(dfd, b, (size_t)n) : 0;
		if (n < 0 || m < 0)
			break;
		for (ssize_t i = 0; !*at && i < m && i < n; i++)
			if (a[i] != b[i])
				*at = *got + (uint64_t)i + 1;
		*got += (uint64_t)n;
	} while (n > 0 && m == n && !*at);
	close(dfd);
	if (n < 0 || m < 0)
		return -1;
	return !*at && *got == size && m == n;
}

/* Read the output NAME and compare it; its verdict line, or none. */
static void one_file(const char *share, const char *dir, const char *data,
		     const char *name, uint64_t size, struct vstate *v)
{
	char path[4096], why[SHARE_WHY_MAX];
	uint64_t got, at;
	int fd, same;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = share_open(share, path, why, sizeof(why));
	if (fd < 0) {
		if (++v->bad <= 3)
			printf("missing output %s\n", name);
		v->missing++;
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", data, name);
	same = compare(fd, path, size, &got, &at);
	close(fd);
	if (same == 1 || ++v->bad > 3)
		return;
	if (same < 0)
		printf("wrong output %s: the input or output could not be read\n", name);
	else if (at)
		printf("wrong output %s: %" PRIu64 " bytes, want %" PRIu64
		       ", first difference at byte %" PRIu64 "\n", name, got, size, at);
	else
		printf("wrong output %s: %" PRIu64 " bytes, want %" PRIu64
		       ", equal up to the shorter one\n", name, got, size);
}

/* The outputs concatenated, hashed (a case whose outputs differ). */
static void concat_sum(FILE *w, const char *share, const char *dir, struct sha256 *all)
{
	static unsigned char buf[65536];
	char name[256], path[4096], why[SHARE_WHY_MAX], hex[65];
	uint64_t size;
	ssize_t n;
	int fd;

	rewind(w);
	while (fscanf(w, "%255s %" SCNu64 " %64s", name, &size, hex) == 3) {
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		fd = share_open(share, path, why, sizeof(why));
		if (fd < 0)
			continue;
		while (size + 1 && (n = read_full(fd, buf, sizeof(buf))) > 0) {
			sha256_update(all, buf, (size_t)n);
			if ((uint64_t)n > size)
				break;
			size -= (uint64_t)n;
		}
		close(fd);
	}
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
		one_file(argv[1], argv[2], argv[4], name, size, v);
	}
	return k == EOF ? 0 : -1;
}

/*
 * SUM: the inputs' short checksum, then the outputs': the same when every
 * output equals its input, none when one is missing, else hashed.
 */
static int write_sum(FILE *w, char **argv, const struct vstate *v)
{
	char *want_sum, path[4096];
	unsigned char all[SHA256_LEN];
	struct sha256 c;
	FILE *s;
	int i;

	snprintf(path, sizeof(path), "%s.sum", argv[3]);
	want_sum = slurp(path, 64, NULL);
	if (want_sum)
		want_sum[strcspn(want_sum, " \n")] = '\0';
	s = fopen(argv[5], "we");
	if (!s) {
		free(want_sum);
		return fail("%s: %s", argv[5], strerror(errno));
	}
	fprintf(s, "%.16s ", want_sum ? want_sum : "");
	if (!v->bad) {
		fprintf(s, "%.16s", want_sum ? want_sum : "");
	} else if (!v->missing) {
		sha256_init(&c);
		concat_sum(w, argv[1], argv[2], &c);
		sha256_final(&c, all);
		for (i = 0; i < 8; i++)
			fprintf(s, "%02x", all[i]);
	}
	fputc('\n', s);
	free(want_sum);
	return fclose(s) ? fail("%s: %s", argv[5], strerror(errno)) : 0;
}

int verify_main(int argc, char **argv)
{
	struct vstate v = { .bad = 0 };
	FILE *w;
	int rc;

	if (argc != 6) {
		msg("usage: gradeclass verify-outputs SHARE DIR WANT DATA SUM");
		return EXIT_USAGE;
	}
	w = fopen(argv[3], "re");
	if (!w) {
		msg("%s: %s", argv[3], strerror(errno));
		return EXIT_USAGE;
	}
	if (each_file(w, argv, &v)) {
		fclose(w);
		msg("%s: not a data set's list", argv[3]);
		return EXIT_USAGE;
	}
	if (v.bad > 3)
		printf("and %u more output files missing or wrong\n", v.bad - 3);
	if (!v.bad)
		puts("pass");
	rc = write_sum(w, argv, &v);
	fclose(w);
	return rc ? EXIT_USAGE : EXIT_OK;
}
