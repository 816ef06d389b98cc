// SPDX-License-Identifier: GPL-2.0
/*
 * slave N file1 ... fileN fcntl|mmap a.b.c.d[:port] [options]: connect
 * /dev/slave_device to a master and receive the files it sends.
 */
#include "devio.h"
#include "device.h"
#include "outfile.h"
#include "util.h"
#include "xfer.h"
#include "xfer_cli.h"

#include <unistd.h>

int main(int argc, char **argv)
{
	struct xfer_opts o;
	struct xfer_args a;
	struct devbuf b;
	uint64_t t0, total;
	unsigned int i;
	int fd, ret;

	set_progname(argv[0]);
	ret = xfer_parse_args(argc, argv, ROLE_SLAVE, &a);
	if (ret)
		return ret > 0 ? EXIT_OK : EXIT_USAGE;
	for (i = 0; i < a.nfiles; i++)
		if (outfile_check(a.files[i]))
			return EXIT_FAIL;
	outfile_remove_on_signals();

	fd = xfer_open_device(&a, &b, &o);
	if (fd < 0 || dev_connect(fd, a.addr, a.port, a.timeout_ms, a.wait_ms))
		return EXIT_FAIL;

	t0 = now_ns();
	ret = xfer_recv(&b, a.files, a.nfiles, &o, &total);
	if (ret)
		return ret;
	xfer_print_time(now_ns() - t0, total);

	devbuf_close(&b);
	close(fd);
	return EXIT_OK;
}
