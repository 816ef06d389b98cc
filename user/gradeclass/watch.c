// SPDX-License-Identifier: GPL-2.0
/*
 * gradeclass watch: run a boot of the grader's guests, read each guest's
 * control channel (a Unix socket QEMU connects to), keep its accepted
 * events with the console log's size in STAGE/BASE.control, relay two
 * guests' events to each other, and TERM the boot when its guests make no
 * progress within the host's limits.
 */
#include "watch.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define WATCH_GUESTS 2
/* How far up the process tree a peer may be from the boot command. */
#define PEER_DEPTH 32
#define NS_PER_S ((uint64_t)1000000000)

struct guest {
	const char *base;
	char sock[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char *log, *control;
	int lfd, cfd, logfd, outfd;
	char line[WATCH_LINE_MAX + 2];
	size_t len;
	int overlong;
	uint64_t bytes, ignored;
	struct watch_order order;
	char *out;		/* the other guest's events, not yet written */
	size_t outlen;
	int heard;		/* an event came: the guest has its port open */
};

struct watch {
	const char *stage, *vms, *dir;
	struct guest g[WATCH_GUESTS];
	int ng, quiet;
	unsigned *files, cases;
	uint64_t stall, boot, byte_cap;
	uid_t quid;
	gid_t qgid;
	int quser;
	char **cmd;
	pid_t child;
	int termed;
	uint64_t start, last, first;
	unsigned begun;
};

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

static void usage(void)
{
	msg("usage: gradeclass watch --stage STAGE --vms VMS --control-dir DIR\n"
	    "       --guest BASE [--guest BASE] --files F1,F2,... --stall S --boot S\n"
	    "       [--qemu-user UID:GID] [--quiet] -- CMD...");
}

/* "F1,F2,...": the files of each case, into w->files and w->cases. */
static int parse_files(struct watch *w, const char *s)
{
	char *copy = xstrdup(s), *p, *save = NULL;
	uint64_t v;

	if (w->files) {
		free(copy);
		return fail("watch: --files given twice");
	}
	w->files = xcalloc(WATCH_CASES_MAX, sizeof(*w->files));
	for (p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (w->cases == WATCH_CASES_MAX ||
		    parse_uint(p, 1, WATCH_FILES_MAX, &v)) {
			free(copy);
			return fail("watch: --files wants 1 to %d counts of 1 to %d, not '%s'",
				    WATCH_CASES_MAX, WATCH_FILES_MAX, s);
		}
		w->files[w->cases++] = (unsigned)v;
	}
	free(copy);
	return w->cases ? 0 : fail("watch: --files names no case");
}

/* The base of a console log: a plain name, nothing a path could hold. */
static int good_base(const char *b)
{
	size_t i, n = strlen(b);

	if (!n || n > 32 || b[0] == '.' || b[0] == '-')
		return 0;
	for (i = 0; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789-_", b[i]))
			return 0;
	return 1;
}

static int parse_limit(const char *opt, const char *s, uint64_t *out)
{
	if (parse_uint(s, 1, 1000000, out))
		return fail("watch: %s wants seconds (1 to 1000000), not '%s'", opt, s);
	return 0;
}

/*
 * --qemu-user UID:GID, the user QEMU runs as when the caller is root
 * (scripts/vm/vm-run's SYNCDEV_QEMU_USER); by default the caller.
 */
static int parse_qemu_user(struct watch *w, const char *s)
{
	char *copy = xstrdup(s), *colon = strchr(copy, ':');
	uint64_t uid, gid;
	int bad = !colon;

	if (colon) {
		*colon = '\0';
		bad = parse_uint(copy, 0, INT_MAX, &uid) || parse_uint(colon + 1, 0, INT_MAX, &gid);
	}
	free(copy);
	if (bad)
		return fail("watch: --qemu-user wants UID:GID, not '%s'", s);
	w->quid = (uid_t)uid;
	w->qgid = (gid_t)gid;
	w->quser = 1;
	return 0;
}

static int parse_option(struct watch *w, char **argv, int *i)
{
	const char *o = argv[*i], *v = argv[*i + 1];

	if (!strcmp(o, "--quiet")) {
		w->quiet = 1;
		return 0;
	}
	if (!v)
		return fail("watch: %s needs a value", o);
	(*i)++;
	if (!strcmp(o, "--stage"))
		w->stage = v;
	else if (!strcmp(o, "--vms") && good_base(v))
		w->vms = v;
	else if (!strcmp(o, "--control-dir"))
		w->dir = v;
	else if (!strcmp(o, "--guest") && good_base(v) && w->ng < WATCH_GUESTS)
		w->g[w->ng++].base = v;
	else if (!strcmp(o, "--files"))
		return parse_files(w, v);
	else if (!strcmp(o, "--qemu-user"))
		return parse_qemu_user(w, v);
	else if (!strcmp(o, "--stall"))
		return parse_limit(o, v, &w->stall);
	else if (!strcmp(o, "--boot"))
		return parse_limit(o, v, &w->boot);
	else
		return fail("watch: bad option or value: %s '%s'", o, v);
	return 0;
}

static int parse_args(struct watch *w, int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (parse_option(w, argv, &i))
			return -1;
	if (i >= argc - 1 || !w->stage || !w->vms || !w->dir || !w->ng ||
	    !w->cases || !w->stall || !w->boot) {
		usage();
		return -1;
	}
	w->cmd = argv + i + 1;
	return 0;
}

/*
 * The control directory: the caller's own (a directory, not a link, owned
 * by it, writable by no one else); QEMU's user may only pass through it.
 */
static int check_dir(struct watch *w)
{
	struct stat st;

	if (lstat(w->dir, &st))
		return fail_errno("watch: %s", w->dir);
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022))
		return fail("watch: %s: not a directory of its own that no one else can write",
			    w->dir);
	if (chmod(w->dir, w->quser ? 0711 : 0700))
		return fail_errno("watch: chmod %s", w->dir);
	return 0;
}

/* DIR/BASE.sock, listening, for QEMU's user only. */
static int listen_guest(struct watch *w, struct guest *g)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int n = snprintf(a.sun_path, sizeof(a.sun_path), "%s/%s.sock", w->dir, g->base);

	if (n < 0 || (size_t)n >= sizeof(a.sun_path))
		return fail("watch: %s/%s.sock: path too long for a socket", w->dir, g->base);
	memcpy(g->sock, a.sun_path, sizeof(g->sock));
	if (unlink(g->sock) && errno != ENOENT)
		return fail_errno("watch: %s", g->sock);
	g->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (g->lfd < 0 || bind(g->lfd, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(g->lfd, 4))
		return fail_errno("watch: %s", g->sock);
	if (fchownat(AT_FDCWD, g->sock, w->quid, w->qgid, AT_SYMLINK_NOFOLLOW) ||
	    chmod(g->sock, 0600))
		return fail_errno("watch: %s", g->sock);
	return 0;
}

static int open_outputs(struct watch *w, struct guest *g)
{
	g->log = xasprintf("%s/%s.log", w->stage, g->base);
	g->control = xasprintf("%s/%s.control", w->stage, g->base);
	g->logfd = -1;
	g->cfd = -1;
	g->outfd = open(g->control, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
			0644);
	if (g->outfd < 0)
		return fail_errno("watch: %s", g->control);
	g->order.files = w->files;
	g->order.cases = w->cases;
	g->order.pair = w->ng == WATCH_GUESTS;
	g->out = xcalloc(1, w->byte_cap);
	return 0;
}

/* The parent of pid, from /proc/PID/stat, or 0. */
static pid_t parent_of(pid_t pid)
{
	char path[64], buf[512], *p;
	int fd, ppid;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %d", &ppid) != 1)
		return 0;
	return ppid;
}

/*
 * Whether the peer of a connection is QEMU of this boot: its user, and a
 * process the boot command started (not another boot's QEMU).
 */
static int peer_ok(const struct watch *w, int fd)
{
	struct ucred c;
	socklen_t len = sizeof(c);
	pid_t p;
	int depth;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &c, &len) || c.uid != w->quid)
		return 0;
	for (p = c.pid, depth = 0; p > 1 && depth < PEER_DEPTH; depth++) {
		if (p == w->child)
			return 1;
		p = parent_of(p);
	}
	return 0;
}

/* The first connection of this boot's QEMU; the socket goes then. */
static void take_connection(struct watch *w, struct guest *g)
{
	int fd = accept4(g->lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

	if (fd < 0)
		return;
	if (!peer_ok(w, fd)) {
		msg("watch: %s: refused a connection that is not this boot's QEMU", g->sock);
		close(fd);
		return;
	}
	g->cfd = fd;
	close(g->lfd);
	g->lfd = -1;
	unlink(g->sock);
}

/*
 * The console log's size now: the file QEMU's console is written to by the
 * host (scripts/vm/vm-run), opened once it exists, without following a
 * link and only if it is a regular file of the caller's.
 */
static uint64_t log_size(struct guest *g)
{
	struct stat st;

	if (g->logfd < 0) {
		g->logfd = open(g->log, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (g->logfd >= 0 && (fstat(g->logfd, &st) || !S_ISREG(st.st_mode) ||
				      st.st_uid != geteuid())) {
			close(g->logfd);
			g->logfd = -1;
		}
	}
	if (g->logfd < 0 || fstat(g->logfd, &st))
		return 0;
	return (uint64_t)st.st_size;
}

/* begin, run, end and done, with the console log's size, into BASE.control. */
static void write_event(struct guest *g, const struct watch_event *e)
{
	char line[WATCH_LINE_MAX + 1];

	switch (e->kind) {
	case WATCH_BEGIN:
	case WATCH_RUN:
	case WATCH_END:
	case WATCH_DONE:
		watch_format(e, line, sizeof(line));
		dprintf(g->outfd, "%s %" PRIu64 "\n", line, log_size(g));
		break;
	default:
		break;
	}
}

/*
 * What of the other guest's events can go to this one's port now: once it
 * has sent an event itself, so that its harness has the port open (a
 * serial port drops what arrives while it is closed).
 */
static void flush_out(struct guest *g)
{
	ssize_t n;

	while (g->cfd >= 0 && g->heard && g->outlen) {
		n = write(g->cfd, g->out, g->outlen);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		memmove(g->out, g->out + n, g->outlen - (size_t)n);
		g->outlen -= (size_t)n;
	}
}

/*
 * Between two guests, an accepted event but begin and run goes to the
 * other's port as the host wrote it: what a harness waits for there is
 * the host's text, never the other guest's.  The other guest's events are
 * bounded as this one's are, so the buffer (of the byte cap) holds them.
 */
static void relay(struct watch *w, struct guest *from, const struct watch_event *e)
{
	struct guest *to = from == &w->g[0] ? &w->g[1] : &w->g[0];
	char line[WATCH_LINE_MAX + 2];
	int n;

	if (w->ng != WATCH_GUESTS || e->kind == WATCH_BEGIN || e->kind == WATCH_RUN)
		return;
	n = watch_format(e, line, sizeof(line) - 1);
	if (n <= 0 || (size_t)n >= sizeof(line) - 1 || to->outlen + (size_t)n + 1 > w->byte_cap)
		return;
	line[n++] = '\n';
	memcpy(to->out + to->outlen, line, (size_t)n);
	to->outlen += (size_t)n;
	flush_out(to);
}

static void line_done(struct watch *w, struct guest *g)
{
	struct watch_event e = { .kind = WATCH_NONE };

	if (!g->overlong)
		watch_accept(&g->order, g->line, g->len, &e);
	g->len = 0;
	g->overlong = 0;
	if (e.kind == WATCH_NONE) {
		g->ignored++;
		return;
	}
	write_event(g, &e);
	if (!g->heard) {
		g->heard = 1;
		flush_out(g);
	}
	relay(w, g, &e);
	w->last = now_ns();
	if (e.kind == WATCH_BEGIN && e.k > w->begun) {
		w->begun = e.k;
		if (!w->first)
			w->first = w->last;
	}
}

static void feed(struct watch *w, struct guest *g, const char *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (buf[i] == '\n')
			line_done(w, g);
		else if (g->len < sizeof(g->line))
			g->line[g->len++] = buf[i];
		else
			g->overlong = 1;
	}
}

/*
 * A guest's port closed (its QEMU gone) or was closed for its flood before
 * its "done": the other guest is told "done", which is what the host
 * knows of it, so that it stops waiting for it.
 */
static void gone(struct watch *w, struct guest *g)
{
	struct watch_event e = { .kind = WATCH_DONE };

	if (g->order.done)
		return;
	g->order.done = 1;
	relay(w, g, &e);
}

static void hang_up(struct guest *g)
{
	if (g->len || g->overlong)
		g->ignored++;
	g->len = 0;
	g->overlong = 0;
	close(g->cfd);
	g->cfd = -1;
}

/*
 * What is there to read on a guest's connection.  Past the bytes a battery
 * can need, the connection is closed: the rest is one ignored line.
 */
static void read_guest(struct watch *w, struct guest *g)
{
	char buf[4096];
	ssize_t n;

	while (g->cfd >= 0) {
		n = read(g->cfd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			hang_up(g);
			gone(w, g);
			return;
		}
		if (g->bytes + (uint64_t)n > w->byte_cap) {
			hang_up(g);
			g->ignored++;
			gone(w, g);
			return;
		}
		g->bytes += (uint64_t)n;
		feed(w, g, buf, (size_t)n);
	}
}

static int start_boot(struct watch *w)
{
	int fd;

	w->child = fork();
	if (w->child < 0)
		return fail_errno("watch: fork");
	if (w->child > 0)
		return 0;
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	if (w->quiet) {
		fd = open("/dev/null", O_WRONLY);
		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(127);
	}
	execvp(w->cmd[0], w->cmd);
	msg_errno("watch: %s", w->cmd[0]);
	_exit(127);
}

/* STAGE/stalled.VMS says why the boot was stopped. */
static void write_stalled(const struct watch *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void write_stalled(const struct watch *w, const char *fmt, ...)
{
	char *path = xasprintf("%s/stalled.%s", w->stage, w->vms);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	va_list ap;

	if (fd < 0) {
		msg_errno("watch: %s", path);
	} else {
		va_start(ap, fmt);
		vdprintf(fd, fmt, ap);
		va_end(ap);
		close(fd);
	}
	free(path);
}

/* TERM the boot when its guests made no accepted progress in time. */
static void check_stall(struct watch *w)
{
	uint64_t limit = w->first ? w->stall : w->boot;

	if (w->termed || now_ns() - w->last <= limit * NS_PER_S)
		return;
	if (w->first)
		write_stalled(w, "hung: case %u of %u made no progress for %" PRIu64 " s\n",
			      w->begun, w->cases, limit);
	else
		write_stalled(w, "hung: no case began within %" PRIu64 " s\n", limit);
	kill(w->child, SIGTERM);
	w->termed = 1;
}

/* One round: wait up to a second for a connection or a line. */
static void poll_guests(struct watch *w)
{
	struct pollfd p[WATCH_GUESTS];
	int i;

	for (i = 0; i < w->ng; i++) {
		p[i].fd = w->g[i].cfd >= 0 ? w->g[i].cfd : w->g[i].lfd;
		p[i].events = POLLIN;
		if (w->g[i].cfd >= 0 && w->g[i].heard && w->g[i].outlen)
			p[i].events |= POLLOUT;
		p[i].revents = 0;
	}
	if (poll(p, (nfds_t)w->ng, 1000) <= 0)
		return;
	for (i = 0; i < w->ng; i++) {
		if (!p[i].revents)
			continue;
		if (w->g[i].cfd >= 0) {
			flush_out(&w->g[i]);
			read_guest(w, &w->g[i]);
		} else if (w->g[i].lfd >= 0) {
			take_connection(w, &w->g[i]);
			flush_out(&w->g[i]);
		}
	}
}

/* Until the boot command ends: its exit status as a shell gives it. */
static int run_boot(struct watch *w)
{
	int status, i;
	pid_t r;

	w->start = w->last = now_ns();
	for (;;) {
		poll_guests(w);
		if (got_signal && !w->termed) {
			kill(w->child, SIGTERM);
			w->termed = 1;
		}
		r = waitpid(w->child, &status, WNOHANG);
		if (r == w->child)
			break;
		check_stall(w);
	}
	for (i = 0; i < w->ng; i++)
		if (w->g[i].cfd >= 0)
			read_guest(w, &w->g[i]);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

/* The end: "ignored N" lines, the phase times, the sockets gone. */
static void finish(struct watch *w)
{
	uint64_t end = now_ns(), first = w->first ? w->first : end;
	char *path = xasprintf("%s/times", w->stage);
	struct guest *g;
	int i, fd;

	for (i = 0; i < w->ng; i++) {
		g = &w->g[i];
		if (g->cfd >= 0)
			hang_up(g);
		dprintf(g->outfd, "ignored %" PRIu64 "\n", g->ignored);
		close(g->outfd);
		free(g->out);
		if (g->lfd >= 0) {
			close(g->lfd);
			unlink(g->sock);
		}
	}
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd >= 0) {
		dprintf(fd, "boot_%s %" PRIu64 "\ncases_%s %" PRIu64 "\n", w->vms,
			(first - w->start) / NS_PER_S, w->vms,
			(end - first) / NS_PER_S);
		close(fd);
	}
	free(path);
}

static int setup(struct watch *w)
{
	struct sigaction sa = { .sa_handler = on_signal };
	uint64_t files = 0;
	unsigned k;
	int i;

	if (!w->quser) {
		w->quid = geteuid();
		w->qgid = getegid();
	}
	if (check_dir(w))
		return -1;
	for (k = 0; k < w->cases; k++)
		files += w->files[k];
	/*
	 * Every line a battery can send, at its longest, and some slack: a case's
	 * begin, ready and end, and each file's run, listening and status.
	 */
	w->byte_cap = (3 * w->cases + 3 * files + 1) * (WATCH_LINE_MAX + 2) + 4096;
	for (i = 0; i < w->ng; i++) {
		w->g[i].lfd = -1;
		if (open_outputs(w, &w->g[i]) || listen_guest(w, &w->g[i]))
			return -1;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

int watch_main(int argc, char **argv)
{
	struct watch w;
	int rc;

	memset(&w, 0, sizeof(w));
	if (parse_args(&w, argc, argv))
		return EXIT_USAGE;
	if (setup(&w) || start_boot(&w))
		return EXIT_FAIL;
	rc = run_boot(&w);
	finish(&w);
	return rc;
}
