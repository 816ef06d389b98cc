// SPDX-License-Identifier: GPL-2.0
/*
 * ctlpeer: connect to a Unix stream socket, send text, report what the
 * other end did: a stand-in for a process that tries to reach a guest's
 * control channel (build/gradeclass watch) in place of its QEMU.
 *
 *	ctlpeer SOCKET TEXT
 *
 * TEXT's "\n" become newlines.  Prints "ctlpeer: connected", then
 * "ctlpeer: sent N bytes" and "ctlpeer: closed by the other end" when it
 * hung up (before the write or within 2 s after it).  Exit 0
 * when the text was sent, 1 when the connection or the write failed (said
 * on stderr), 2 on a usage error.
 */
#include "util.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* TEXT with its "\n" turned into newlines, in place; its new length. */
static size_t unescape(char *s)
{
	size_t i, o = 0;

	for (i = 0; s[i]; i++) {
		if (s[i] == '\\' && s[i + 1] == 'n') {
			s[o++] = '\n';
			i++;
		} else {
			s[o++] = s[i];
		}
	}
	return o;
}

int main(int argc, char **argv)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct pollfd p;
	char buf[64];
	size_t n;
	int fd;

	set_progname(argv[0]);
	signal(SIGPIPE, SIG_IGN);
	if (argc == 2 && !strcmp(argv[1], "--help")) {
		printf("usage: ctlpeer SOCKET TEXT\n\n"
		       "Connect to the Unix socket SOCKET, send TEXT (\\n: a newline), say\n"
		       "whether the other end hung up.\n");
		return EXIT_OK;
	}
	if (argc != 3 || strlen(argv[1]) >= sizeof(a.sun_path))
		die(EXIT_USAGE, "usage: ctlpeer SOCKET TEXT");
	strcpy(a.sun_path, argv[1]);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)))
		die_errno("cannot connect to %s", argv[1]);
	printf("ctlpeer: connected\n");
	fflush(stdout);
	n = unescape(argv[2]);
	if (write_full(fd, argv[2], n) < 0) {
		if (errno != EPIPE && errno != ECONNRESET)
			die_errno("cannot write to %s", argv[1]);
		printf("ctlpeer: closed by the other end\n");
		return EXIT_OK;
	}
	printf("ctlpeer: sent %zu bytes\n", n);
	p.fd = fd;
	p.events = POLLIN;
	if (poll(&p, 1, 2000) > 0 && read(fd, buf, sizeof(buf)) <= 0)
		printf("ctlpeer: closed by the other end\n");
	close(fd);
	return EXIT_OK;
}
