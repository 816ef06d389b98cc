// SPDX-License-Identifier: GPL-2.0
/*
 * reusecheck: a master that overwrites its mmapped buffer the moment each
 * SEND returns never changes the bytes that SEND sent.  One "PASS name" /
 * "FAIL name: why" line.  Runs in the test guest with the module loaded.
 *
 *	reusecheck ROUNDS CHUNK
 *
 * A connected pair over 127.0.0.1 (devtest.h), then two processes: the
 * master fills [0, CHUNK) of its buffer with round k's pattern, SENDs it,
 * and at once writes another pattern over the whole range before the next
 * round, ROUNDS times, always at the same offset; the slave RECVs each
 * round (WAITALL) into its own buffer and checks every byte against round
 * k's pattern.  A device that sent the buffer's pages by reference and
 * returned before the peer had taken them would deliver the overwriting
 * bytes instead.  The slave runs under a watchdog, so a hang fails too.
 */
#include "devtest.h"
#include "testpat.h"

#include <sys/mman.h>
#include <sys/wait.h>

#define WATCHDOG_S	300

/* Byte i of round k: the tools' pattern, seeded by the round. */
static unsigned char pattern(uint64_t i, unsigned int k)
{
	return testpat_byte(i, k);
}

static unsigned char *map(int fd, size_t len, int prot)
{
	void *p = mmap(NULL, len, prot, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED) {
		printf("FAIL reuse: mmap of %zu bytes: %s\n", len,
		       strerror(errno));
		exit(1);
	}
	return p;
}

/* The slave: 0 if every byte of every round is round k's, else 1. */
static int slave(int s, unsigned int rounds, size_t chunk)
{
	unsigned char *b = map(s, chunk, PROT_READ);
	unsigned int k;
	size_t i;

	for (k = 0; k < rounds; k++) {
		if (dt_xfer(s, SYNCDEV_IOC_RECV, 0, chunk,
			    SYNCDEV_RECV_WAITALL, 0) != (int)chunk) {
			printf("FAIL buffer reuse: RECV of round %u: %s\n", k,
			       strerror(errno));
			return 1;
		}
		for (i = 0; i < chunk; i++) {
			if (b[i] == pattern(i, k))
				continue;
			printf("FAIL buffer reuse: round %u, byte %zu is 0x%02x, sent 0x%02x%s\n",
			       k, i, b[i], pattern(i, k),
			       b[i] == (unsigned char)~pattern(i, k) ?
			       " (the bytes written over it after SEND)" : "");
			return 1;
		}
	}
	return 0;
}

/* The master: SEND each round, then overwrite the range at once. */
static int master(int m, unsigned int rounds, size_t chunk)
{
	unsigned char *b = map(m, chunk, PROT_READ | PROT_WRITE);
	unsigned int k;
	size_t i;

	for (k = 0; k < rounds; k++) {
		testpat_fill(b, chunk, 0, k);
		if (dt_xfer(m, SYNCDEV_IOC_SEND, 0, chunk, 0, 0)) {
			fprintf(stderr, "reusecheck: SEND of round %u: %s\n",
				k, strerror(errno));
			return 1;
		}
		for (i = 0; i < chunk; i++)
			b[i] = (unsigned char)~pattern(i, k);
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long rounds, chunk;
	struct syncdev_info info;
	int m, s, st, mret;
	pid_t pid;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc != 3 || !(rounds = strtoul(argv[1], NULL, 10)) ||
	    !(chunk = strtoul(argv[2], NULL, 10))) {
		fprintf(stderr, "usage: reusecheck ROUNDS CHUNK\n");
		return 2;
	}
	if (dt_pair(&m, &s) || ioctl(m, SYNCDEV_IOC_INFO, &info)) {
		printf("FAIL buffer reuse: no connected pair\n");
		return 1;
	}
	if (chunk > info.buf_size) {
		printf("FAIL buffer reuse: %lu bytes, the buffer has %llu\n",
		       chunk, (unsigned long long)info.buf_size);
		return 1;
	}
	pid = fork();
	if (pid == 0) {
		close(m);
		alarm(WATCHDOG_S);
		_exit(slave(s, (unsigned int)rounds, chunk));
	}
	close(s);
	mret = master(m, (unsigned int)rounds, chunk);
	if (mret) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		printf("FAIL buffer reuse: the master's SEND failed\n");
		return 1;
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st)) {
		printf("FAIL buffer reuse: the slave did not finish (watchdog %d s)\n",
		       WATCHDOG_S);
		return 1;
	}
	if (WEXITSTATUS(st))
		return 1;
	printf("PASS buffer reuse: %lu SENDs of %lu bytes overwritten at once after each, every byte received as sent\n",
	       rounds, chunk);
	close(m);
	return 0;
}
