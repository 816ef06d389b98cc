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
	struct xfer_opts o = { 0 };
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

	fd = dev_open(a.device);
	if (fd < 0)
		return EXIT_FAIL;
	if (devbuf_open(&b, fd, a.method,
			a.buffer ? a.buffer :
			a.method == METHOD_MMAP ? 0 : XFER_DEFAULT_BUFFER))
		return EXIT_FAIL;
	if (dev_connect(fd, a.addr, a.port, a.timeout_ms, a.wait_ms))
		return EXIT_FAIL;

	t0 = now_ns();
	o.verbose = a.verbose;
	o.print_pages = a.method == METHOD_MMAP;
	ret = xfer_recv(&b, a.files, a.nfiles, &o, &total);
	if (ret)
		return ret;
	xfer_print_time(now_ns() - t0, total);

	devbuf_close(&b);
	close(fd);
	return EXIT_OK;
}
