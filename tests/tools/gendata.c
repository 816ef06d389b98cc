// SPDX-License-Identifier: GPL-2.0
/*
 * gendata SIZE [SEED]: write SIZE bytes of reproducible pseudo-random data
 * to stdout.  The same SIZE and SEED give the same bytes on every machine,
 * so two VMs can generate the input and the expected output independently.
 */
#include "util.h"

#include <stdio.h>
#include <string.h>

/* xorshift64*: fast, and stable across platforms and compilers. */
static uint64_t next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

int main(int argc, char **argv)
{
	static uint64_t buf[8192];
	uint64_t size, seed = 1, state;
	size_t i;

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
	state = seed * 0x9E3779B97F4A7C15ULL + 1;
	while (size) {
		size_t n = size < sizeof(buf) ? (size_t)size : sizeof(buf);

		for (i = 0; i < (n + 7) / 8; i++)
			buf[i] = next(&state);
		if (write_full(1, buf, n) < 0)
			die_errno("write");
		size -= n;
	}
	return EXIT_OK;
}
