// SPDX-License-Identifier: GPL-2.0
/*
 * fileaccess --syncdev-serve: the master side of fileaccess --syncdev.
 * Accept readers on /dev/master_device one after the other, stream the
 * whole file to each and close that connection, so the reader sees the
 * end of the file as the end of the stream.  The session keeps the
 * listening socket between connections, so a reader's next connect is
 * queued, never refused.
 *
 * The file's XOR value (xor32.h) is computed once before serving and
 * printed, for the reader's check to be compared with; serving itself
 * does no work but reading the file (from the page cache after the first
 * pass) and writing it to the device.
 */
#include "device.h"
#include "fileaccess.h"
#include "stopsig.h"
#include "util.h"
#include "xor32.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SERVE_BLOCK (1u << 20)

/* Size and XOR value of the file: 0, or -1 after a message. */
static int file_xor(int in, const char *file, unsigned char *buf,
		    uint64_t *size, uint32_t *x)
{
	uint64_t off = 0;
	ssize_t n;

	*x = 0;
	while ((n = pread(in, buf, SERVE_BLOCK, (off_t)off)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return fail_errno("read %s", file);
		*x ^= xor32(buf, (size_t)n, off);
		off += (uint64_t)n;
	}
	*size = off;
	return 0;
}

/*
 * The file to serve, checked: its fd with *size and *x, or -1 with *rc
 * the exit code (EXIT_USAGE for a file that cannot be served).
 */
static int open_served(const char *file, unsigned char *buf, uint64_t *size,
		       uint32_t *x, int *rc)
{
	struct stat st;
	int in = open(file, O_RDONLY | O_CLOEXEC);

	*rc = EXIT_FAIL;
	if (in < 0)
		return fail_errno("cannot open %s", file);
	if (fstat(in, &st) || !S_ISREG(st.st_mode)) {
		msg("%s: not a regular file", file);
		*rc = EXIT_USAGE;
	} else if (file_xor(in, file, buf, size, x) == 0) {
		if (*size)
			return in;
		msg("%s is empty: nothing to measure", file);
		*rc = EXIT_USAGE;
	}
	close(in);
	return -1;
}

/* Write n bytes unless a stop signal comes first.  0 or -1 with errno. */
static int write_all(int dev, const unsigned char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(dev, p, n);
		if (stop_signal_caught()) {
			errno = EINTR;
			return -1;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The file from its start to the connected reader: 0, or -1 and errno. */
static int stream_file(int dev, int in, unsigned char *buf, uint64_t size,
		       uint64_t *sent)
{
	ssize_t n;

	for (*sent = 0; *sent < size; *sent += (uint64_t)n) {
		n = pread(in, buf, SERVE_BLOCK, (off_t)*sent);
		if (n < 0)
			return -1;
		if (n == 0) {
			/* The file shrank: the reader sees a short stream. */
			errno = ENODATA;
			return -1;
		}
		if (write_all(dev, buf, (size_t)n))
			return -1;
	}
	return 0;
}

/* One accepted reader: EXIT_OK, or EXIT_FAIL when serving failed. */
static int serve_one(int dev, int in, unsigned char *buf, uint64_t size,
		     uint64_t served, const char *file)
{
	uint64_t sent;

	if (!stream_file(dev, in, buf, size, &sent) || stop_signal_caught())
		return EXIT_OK;	/* a stopped one counts: it began */
	if (dev_peer_gone(errno)) {
		msg("connection %llu: the reader left after %llu of %llu bytes",
		    (unsigned long long)served, (unsigned long long)sent,
		    (unsigned long long)size);
		return EXIT_OK;
	}
	msg_errno("connection %llu: streaming %s failed after %llu bytes",
		  (unsigned long long)served, file, (unsigned long long)sent);
	return EXIT_FAIL;
}

/* Accept and serve until count (0: until a stop signal). */
static int serve_loop(int dev, const char *path, int in, unsigned char *buf,
		      uint64_t size, uint64_t count, const char *file)
{
	uint64_t served = 0;
	int rc = EXIT_OK;

	while (rc == EXIT_OK && !stop_signal_caught() && (!count || served < count)) {
		if (dev_accept(dev, path)) {
			if (errno != EINTR || !stop_signal_caught())
				rc = EXIT_FAIL;
			break;
		}
		served++;
		rc = serve_one(dev, in, buf, size, served, file);
		if (dev_disconnect(dev, path))
			rc = EXIT_FAIL;
	}
	if (stop_signal_caught())
		msg("stopped by %s", strsignal(stop_signal_caught()));
	msg("served %llu connection%s", (unsigned long long)served,
	    served == 1 ? "" : "s");
	return rc;
}

int fa_serve(const char *file, uint64_t count)
{
	const char *path = dev_path(DEV_MASTER);
	unsigned char *buf = xmalloc(SERVE_BLOCK);
	uint64_t size = 0;
	uint32_t x = 0;
	int in, dev, rc;

	in = open_served(file, buf, &size, &x, &rc);
	if (in < 0) {
		free(buf);
		return rc;
	}
	dev = dev_open(path);
	if (dev < 0) {
		rc = EXIT_FAIL;
	} else {
		stop_signals_catch();
		msg("serving %s: %llu bytes, XOR value %08x, on %s", file,
		    (unsigned long long)size, x, path);
		rc = serve_loop(dev, path, in, buf, size, count, file);
		close(dev);
	}
	close(in);
	free(buf);
	return rc;
}
