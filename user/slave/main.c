// SPDX-License-Identifier: GPL-2.0
/*
 * slave N file1 ... fileN fcntl|mmap a.b.c.d[:port] [options]: connect
 * /dev/slave_device to a master, receive the files it sends, and tell the
 * master the outcome.
 */
#include "ack.h"
#include "auth.h"
#include "devio.h"
#include "device.h"
#include "help.h"
#include "outfile/outfile.h"
#include "util.h"
#include "xfer.h"
#include "cli/xfer_cli.h"
#include "handshake.h"

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

/*
 * The names to write: each output checked (a regular file or none yet;
 * symbolic links followed), no two the same file; absent[i]: nothing has
 * the name yet.  Exits on failure.
 */
static char **check_outputs(const struct xfer_args *a, unsigned char *absent)
{
	char **targets = outfile_check_all(a->files, a->nfiles, absent);

	if (!targets)
		exit(EXIT_FAIL);
	if (outfile_check_unique(a->files, targets, a->nfiles))
		exit(EXIT_USAGE);
	return targets;
}

int main(int argc, char **argv)
{
	static struct auth_key key;
	struct auth_session sess;
	struct xfer_pages pg;
	struct xfer_report r;
	struct xfer_opts o;
	struct xfer_args a;
	struct devbuf b;
	unsigned char *absent;
	char **targets;
	uint64_t t0, t1;
	int fd, ret, ok;

	set_progname(argv[0]);
	ret = xfer_parse_args(argc, argv, ROLE_SLAVE, &a);
	if (ret > 0)
		slave_usage(stdout);
	if (ret)
		return ret > 0 ? EXIT_OK : EXIT_USAGE;
	if (a.opt.key_path && auth_load_key(a.opt.key_path, &key))
		return EXIT_FAIL;
	outfile_set_sync(!a.opt.no_sync);
	signal(SIGPIPE, SIG_IGN);
	absent = xcalloc(a.nfiles ? a.nfiles : 1, 1);
	targets = check_outputs(&a, absent);
	outfile_remove_on_signals();

	fd = xfer_open_device(&a, &b, &o);
	if (fd < 0)
		return EXIT_FAIL;
	o.absent = absent;
	ret = xfer_connect(fd, &a, a.opt.key_path ? &key : NULL, &sess);
	if (ret)
		return ret;
	if (a.opt.key_path) {
		o.auth = &sess;
		ack_set_auth(&sess);
	}

	t0 = now_ns();
	ret = xfer_recv(&b, targets, a.nfiles, &o, &r, &pg);
	t1 = now_ns();
	ok = ret == EXIT_OK;
	ret = ack_answer(fd, ret, r.status, r.index, r.files, "master");
	if (o.print_pages)
		xfer_recv_pages(&b, &pg, ok);
	outfile_release();
	if (ret)
		return ret;
	xfer_print_time(t1 - t0, r.total);

	devbuf_close(&b);
	close(fd);
	return EXIT_OK;
}
