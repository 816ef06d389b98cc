// SPDX-License-Identifier: GPL-2.0
/*
 * gendata SIZE [SEED]: write SIZE bytes of reproducible pseudo-random data
 * to stdout.  The same SIZE and SEED give the same bytes on every machine,
 * so two VMs can generate the input and the expected output independently:
 * the stream SEED of the tools' one pattern (lib/testpat.h).
 */
#include "testpat.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	static unsigned char buf[1 << 16];
	uint64_t size, seed = 1, pos = 0;

	set_progname(argv[0]);
	if (argc < 2 || argc > 3 || !strcmp(argv[1], "--help")) {
		fprintf(argc == 2 ? stdout : stderr,
			"usage: gendata SIZE [SEED]   (SIZE accepts K/M/G)\n");
		return argc == 2 ? EXIT_OK : EXIT_USAGE;
	}
	if (parse_size(argv[1], &size))
		die(EXIT_USAGE, "bad size '%s'", argv[1]);
	if (argc == 3 && parse_uint(argv[2], 0, UINT64_MAX, &seed))
		die(EXIT_USAGE, "bad seed '%s'", argv[2]);
	while (size) {
		size_t n = size < sizeof(buf) ? (size_t)size : sizeof(buf);

		testpat_fill(buf, n, pos, seed);
		if (write_full(1, buf, n) < 0)
			die_errno("write");
		size -= n;
		pos += n;
	}
	return EXIT_OK;
}
