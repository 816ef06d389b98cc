// SPDX-License-Identifier: GPL-2.0
/*
 * master N file1 ... fileN fcntl|mmap [options]: wait for one slave on
 * /dev/master_device, send it the files over that one connection, and
 * exit 0 only when the slave confirms that every file arrived intact and
 * is in place.
 */
#include "ack.h"
#include "auth.h"
#include "devio.h"
#include "device.h"
#include "help.h"
#include "infile.h"
#include "util.h"
#include "xfer.h"
#include "cli/xfer_cli.h"
#include "handshake.h"

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

/*
 * Every input opened and checked before a slave is made to wait for it;
 * exits on failure.  In mmap mode a small file is read() into the device
 * buffer rather than mapped (XFER_MAP_MIN, xfer.h): its mapping would cost
 * mmap, madvise, a page fault and munmap to save no copy.  Until one file
 * is mapped any non-empty one is: the course's page-descriptor line is the
 * one of a file's mapping.  In fcntl mode a file of XFER_MAP_MIN and up is
 * mapped too: it goes by sendfile(), and its CRC and MAC are computed
 * from the mapping (xfer_send.c); with --copy none is, every file is
 * read().
 */
static struct infile *open_inputs(const struct xfer_args *a, uint64_t *total)
{
	struct infile *files = xcalloc(a->nfiles, sizeof(*files));
	uint64_t map_from = a->method == METHOD_MMAP ? 1 :
			    a->opt.copy ? UINT64_MAX : XFER_MAP_MIN;
	unsigned int i;

	*total = 0;
	for (i = 0; i < a->nfiles; i++) {
		if (infile_open(&files[i], a->files[i], map_from))
			exit(EXIT_FAIL);
		if (files[i].map)
			map_from = XFER_MAP_MIN;
		*total += files[i].size;
	}
	return files;
}

int main(int argc, char **argv)
{
	static struct auth_key key;
	struct auth_session sess;
	struct ack_in in = { .len = 0 };
	struct xfer_opts o;
	struct xfer_args a;
	struct infile *files;
	struct devbuf b;
	uint64_t t0, total;
	unsigned int i;
	int fd, ret;

	set_progname(argv[0]);
	ret = xfer_parse_args(argc, argv, ROLE_MASTER, &a);
	if (ret > 0)
		master_usage(stdout);
	if (ret)
		return ret > 0 ? EXIT_OK : EXIT_USAGE;
	if (a.opt.key_path && auth_load_key(a.opt.key_path, &key))
		return EXIT_FAIL;
	/* A vanished slave must be an error message, not a silent death. */
	signal(SIGPIPE, SIG_IGN);

	files = open_inputs(&a, &total);

	fd = xfer_open_device(&a, &b, &o);
	if (fd < 0 || xfer_accept(fd, &a, a.opt.key_path ? &key : NULL, &sess))
		return EXIT_FAIL;
	if (a.opt.key_path) {
		o.auth = &sess;
		ack_set_auth(&sess);
	}

	t0 = now_ns();
	ret = xfer_send(&b, files, a.nfiles, &o, &in);
	/* The connection stays open until the slave has answered. */
	if (ret)
		ret = ack_failed(fd, &in, a.nfiles, a.files, "slave");
	else
		ret = ack_wait(fd, &in, a.nfiles, a.files, "slave");
	if (o.print_pages)
		xfer_send_pages(&b, files, a.nfiles);
	if (ret)
		return ret;
	xfer_print_time(now_ns() - t0, total);

	for (i = 0; i < a.nfiles; i++)
		infile_close(&files[i]);
	free(files);
	devbuf_close(&b);
	if (close(fd))
		die_errno("closing %s", a.opt.device);
	return EXIT_OK;
}
