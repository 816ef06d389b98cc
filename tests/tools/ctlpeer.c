// SPDX-License-Identifier: GPL-2.0
/*
 * ctlpeer: connect to a Unix stream socket, send text, report what the
 * other end did: a stand-in for a process that tries to reach a guest's
 * control channel (build/gradeclass watch) in place of its QEMU.
 *
 *	ctlpeer SOCKET TEXT
 *
 * TEXT's "\n" become newlines.  Prints "ctlpeer: connected", then
 * "ctlpeer: sent N bytes", "ctlpeer: received LINE" for each line the
 * other end wrote until it was quiet for 2 s (what the host relays of
 * another guest; LINE's bytes other than printable ASCII as '?'), and
 * "ctlpeer: closed by the other end" when it hung up (before the write or
 * within those seconds).  Exit 0
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

/*
 * Print the lines the other end writes until it is quiet for 2 s or
 * hangs up; a last line without a newline is printed too.
 */
static void receive(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char buf[256], line[256];
	size_t len = 0;
	ssize_t n, i;

	while (poll(&p, 1, 2000) > 0) {
		n = read(fd, buf, sizeof(buf));
		if (n <= 0) {
			printf("ctlpeer: closed by the other end\n");
			break;
		}
		for (i = 0; i < n; i++) {
			if (buf[i] == '\n' || len == sizeof(line) - 1) {
				printf("ctlpeer: received %.*s\n", (int)len, line);
				len = 0;
			}
			if (buf[i] != '\n')
				line[len++] = buf[i] >= ' ' && buf[i] <= '~' ? buf[i] : '?';
		}
	}
	if (len)
		printf("ctlpeer: received %.*s\n", (int)len, line);
}

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
	size_t n;
	int fd;

	set_progname(argv[0]);
	signal(SIGPIPE, SIG_IGN);
	if (argc == 2 && !strcmp(argv[1], "--help")) {
		printf("usage: ctlpeer SOCKET TEXT\n\n"
		       "Connect to the Unix socket SOCKET, send TEXT (\\n: a newline), print\n"
		       "the lines the other end writes until it is quiet for 2 s, say\n"
		       "whether it hung up.\n");
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
	fflush(stdout);
	receive(fd);
	close(fd);
	return EXIT_OK;
}
