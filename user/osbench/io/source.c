// SPDX-License-Identifier: GPL-2.0
/* Options and inputs shared by the I/O experiments. */
#include "device.h"
#include "io.h"
#include "netaddr.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int io_source_operand(struct io_source *s, int nargs, char **args)
{
	if (s->device || s->master) {
		s->path = NULL;
		if (!s->master)
			s->master = "127.0.0.1";
		if (nargs != 0) {
			msg("--device reads %s; no file operand",
			    dev_path(DEV_SLAVE));
			return -1;
		}
		/* Refuse a bad address before anything is opened. */
		return parse_ipv4_port(s->master, dev_port(), &s->addr,
				       &s->port) ? -1 : 0;
	}
	if (nargs != 1) {
		msg("expected one file (or --device); see --help");
		return -1;
	}
	s->path = args[0];
	return 0;
}

/* A file operand, not a number: it exists, or it is no size. */
static int looks_like_file(const char *arg)
{
	uint64_t v;

	return access(arg, F_OK) == 0 || parse_size(arg, &v) != 0;
}

int io_operands_check(const struct io_source *s, int nargs, char **args,
		      const char *const *names, int nnames, const char *form)
{
	int file = !(s->device || s->master), want = nnames + file, i;
	char missing[128] = "";

	if (nargs == want || (!file && nargs > want))
		return 0;	/* io_source_operand says what is extra */
	if (nargs > want) {
		msg("%d operands where %d are expected (usage: %s)", nargs,
		    want, form);
		return -1;
	}
	if (file && nargs > 0 && !looks_like_file(args[0])) {
		msg("missing the file before %s '%s' (usage: %s)", names[0],
		    args[0], form);
		return -1;
	}
	for (i = nargs > file ? nargs - file : 0; i < nnames; i++)
		snprintf(missing + strlen(missing), sizeof(missing) -
			 strlen(missing), "%s%s", missing[0] ? " and " : "",
			 names[i]);
	if (nargs == 0)
		msg("missing %s%s (usage: %s)", file ? "the file and " : "",
		    missing, form);
	else
		msg("missing %s after %s '%s' (usage: %s)", missing,
		    nargs == file ? "the file" : names[nargs - file - 1],
		    args[nargs - 1], form);
	return -1;
}

int io_source_open(const struct io_source *s)
{
	int fd;

	if (s->path) {
		fd = open(s->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			msg_errno("cannot open '%s'", s->path);
		return fd;
	}
	fd = dev_open(dev_path(DEV_SLAVE));
	if (fd >= 0 && dev_connect(fd, s->addr, s->port, 0, 0)) {
		close(fd);
		return -1;
	}
	return fd;
}

const char *io_source_name(const struct io_source *s)
{
	static char name[128];

	if (s->path)
		return s->path;
	snprintf(name, sizeof(name), "%s (master %s)", dev_path(DEV_SLAVE),
		 s->master);
	return name;
}

uint64_t io_pick_time(const struct benchopt *o, uint64_t full_ns)
{
	return benchopt_pick(o, full_ns, full_ns / 5, full_ns / 50);
}


int io_parse_block(const char *what, const char *s, uint64_t *out)
{
	static const struct opt block = { .name = "block", IO_BLOCK };

	return optable_value(&block, what, s, out);
}
