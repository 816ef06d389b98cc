// SPDX-License-Identifier: GPL-2.0
/*
 * The slave's mmap-mode output on tmpfs (user/libsyncdev/pagefill.c,
 * outfile.c): pages filled by UFFDIO_COPY as the bytes arrive, in writes
 * of any size, give the file byte for byte and its CRC32C; a write out of
 * order stops the filling and still gives the file; a page touched
 * before it is filled is a SIGBUS that the copy survives, never a hang.
 * Where userfaultfd is refused (tests/host/pagefill.sh runs this under
 * tests/tools/refuse), the same files come from the mapping's faults.
 * SYNCDEV_EXPECT_FILL=1 or 0 says which of the two must happen here.
 */
#include "check.h"
#include "crc32c.h"
#include "mapguard.h"
#include "outfile/outfile.h"
#include "pagefill.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* On tmpfs, which /dev/shm is on every Linux system. */
static char dir[] = "/dev/shm/syncdev-test-XXXXXX";
static char name[sizeof(dir) + 16];

static unsigned char *pattern(size_t n, unsigned int seed)
{
	unsigned char *d = malloc(n);
	size_t i;

	for (i = 0; d && i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		d[i] = (unsigned char)(seed >> 16);
	}
	return d;
}

static int same_as(const char *file, const unsigned char *d, size_t n)
{
	unsigned char *got = malloc(n + 1);
	int fd = open(file, O_RDONLY), same;
	ssize_t r = fd < 0 ? -1 : read(fd, got, n + 1);

	same = got && r == (ssize_t)n && !memcmp(got, d, n);
	if (fd >= 0)
		close(fd);
	free(got);
	return same;
}

/* Whether filling must (1), must not (0) or may (-1) happen here. */
static int expect_fill(void)
{
	const char *e = getenv("SYNCDEV_EXPECT_FILL");

	return e && *e ? atoi(e) != 0 : -1;
}

static void check_mode(const struct outfile *f, const char *what)
{
	int want = expect_fill(), got = f->fill.fd >= 0;

	if (want < 0)
		printf("(%s: %s)\n", what, got ? "pages filled by UFFDIO_COPY" :
		       "userfaultfd refused: the mapping faults");
	else
		CHECK(got == want, "%s: pages %s", what,
		      want ? "filled by UFFDIO_COPY" : "faulted in (userfaultfd refused)");
}

/*
 * One file in writes of awkward sizes: a byte, a page less one, a page
 * more one, pages, and an odd tail, so that every case of write_filled
 * (head in a filled page, whole pages, a partial last page) happens.
 */
static void test_writes(void)
{
	static const size_t sizes[] = { 1, 4095, 4096, 4097, 3, 8197, 100000,
					1 << 20, 12345 };
	size_t total = 0, i, off = 0;
	struct outfile f;
	uint32_t crc = 0, want;
	unsigned char *d;
	int ok = 1;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		total += sizes[i];
	d = pattern(total, 7);
	want = crc32c(0, d, total);
	snprintf(name, sizeof(name), "%s/out", dir);
	if (!d || outfile_create(&f, name, total, OUTFILE_MAP)) {
		CHECK(0, "fill: create a mapped output of %zu bytes", total);
		free(d);
		return;
	}
	check_mode(&f, "fill");
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]) && ok; i++) {
		ok = outfile_write(&f, off, d + off, sizes[i], &crc) == 0;
		off += sizes[i];
	}
	CHECK(ok && crc == want, "fill: %zu writes of 1 B .. 1 MiB, CRC32C %08x (want %08x)",
	      i, crc, want);
	if (expect_fill() == 1)
		CHECK(f.fill.fd >= 0, "fill: still filling after the last write");
	CHECK(outfile_commit(&f) == 0 && same_as(name, d, total),
	      "fill: the file byte for byte (%zu bytes, not a page multiple)",
	      total);
	unlink(name);
	free(d);
}

/* A write out of order: the filling stops, the file is still right. */
static void test_out_of_order(void)
{
	const size_t n = 3 * 4096 + 100;
	unsigned char *d = pattern(n, 11);
	struct outfile f;
	int ok;

	snprintf(name, sizeof(name), "%s/ooo", dir);
	if (!d || outfile_create(&f, name, n, OUTFILE_MAP)) {
		CHECK(0, "out of order: create");
		free(d);
		return;
	}
	ok = outfile_write(&f, 0, d, 5000, NULL) == 0 &&
	     outfile_write(&f, 6000, d + 6000, n - 6000, NULL) == 0 &&
	     f.fill.fd < 0 &&
	     outfile_write(&f, 5000, d + 5000, 1000, NULL) == 0;
	CHECK(ok && outfile_commit(&f) == 0 && same_as(name, d, n),
	      "out of order: filling stops, the file is right");
	unlink(name);
	free(d);
}

/*
 * A page of a registered range touched before it is filled: SIGBUS,
 * which map_copy turns into an error, instead of waiting for ever for a
 * fault handler.
 */
static void test_unfilled_page(void)
{
	const size_t len = 4 * 4096;
	struct pagefill u;
	unsigned char *map;
	int fd;

	snprintf(name, sizeof(name), "%s/bus", dir);
	fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)len)) {
		CHECK(0, "unfilled page: scratch file");
		return;
	}
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map != MAP_FAILED && pagefill_start(&u, map, len) == 0) {
		static unsigned char page[4096] = { 'x' };

		CHECK(pagefill_copy(&u, 0, page, 4096) == 0 && map[0] == 'x',
		      "unfilled page: a filled page reads back");
		CHECK(map_copy(map + 2 * 4096, "abc", 3, NULL) == -1,
		      "unfilled page: touching it is an error, not a hang");
		CHECK(pagefill_copy(&u, 0, page, 4096) == -1 && errno == EEXIST,
		      "unfilled page: a page filled twice is EEXIST");
		pagefill_stop(&u);
		CHECK(map_copy(map + 2 * 4096, "abc", 3, NULL) == 0 &&
		      !memcmp(map + 2 * 4096, "abc", 3),
		      "unfilled page: after pagefill_stop it faults in as usual");
	} else if (expect_fill() == 1) {
		CHECK(0, "unfilled page: pagefill_start: %s", strerror(errno));
	} else {
		CHECK(expect_fill() != 1 && (errno == EPERM || errno == ENOSYS ||
					     errno == EINVAL),
		      "unfilled page: userfaultfd refused (%s), not tested",
		      strerror(errno));
	}
	if (map != MAP_FAILED)
		munmap(map, len);
	close(fd);
	unlink(name);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		CHECK(0, "a scratch directory in /dev/shm: %s", strerror(errno));
		return check_done();
	}
	test_writes();
	test_out_of_order();
	test_unfilled_page();
	rmdir(dir);
	return check_done();
}
