/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gradeclass watch: the host's side of the grader's control channel.  Each
 * guest of a boot writes "begin K", "run K R", "end K" and "done" lines on
 * a serial port whose host end is a Unix socket the watcher listens on; the
 * watcher keeps the well-formed ones that come in order, writes them with
 * the console log's size beside the log, and ends a boot whose guests make
 * no progress within the host's own limits (docs/grading-trust.md).  Two
 * guests also write "ready K", "listening K R" and "status K R ok|failed";
 * the watcher writes each accepted event of one guest but begin and run to
 * the other's port, which is how the two keep in step.
 */
#ifndef GRADECLASS_WATCH_H
#define GRADECLASS_WATCH_H

#include <stddef.h>
#include <stdint.h>

/* The longest control line kept, without its newline. */
#define WATCH_LINE_MAX 40
/* The most cases of one boot. */
#define WATCH_CASES_MAX 10000
/* The most files of one case (runs of a one-file command line). */
#define WATCH_FILES_MAX 100000

/* One accepted event. */
enum watch_kind {
	WATCH_NONE, WATCH_BEGIN, WATCH_RUN, WATCH_END, WATCH_DONE,
	WATCH_READY, WATCH_LISTENING, WATCH_STATUS
};

struct watch_event {
	enum watch_kind kind;
	unsigned k, r;		/* the case and run (0 where the event has none) */
	int failed;		/* a status: "failed" (else "ok") */
};

/* Where one guest is in the battery, as its accepted events say. */
struct watch_order {
	const unsigned *files;	/* files[k - 1]: the files of case k */
	unsigned cases;		/* the boot's cases */
	unsigned begun;		/* the last case begun, 0 before the first */
	unsigned run;		/* the last run of it, 1 at its begin */
	int ended;		/* its end came */
	int done;		/* "done" came: nothing more is accepted */
	int pair;		/* one of two guests: ready, listening, status too */
	int ready;		/* the case's ready came */
	int listened;		/* the run's listening came */
	int stated;		/* the run's status came (with pair, before a run or end) */
};

/*
 * The event of one control line (len bytes, no newline; a trailing
 * carriage return is allowed) if it is well formed and comes in order:
 * order is updated and *event set (its kind WATCH_NONE, and the rest 0,
 * when the line is ignored).  Returns the kind.
 */
enum watch_kind watch_accept(struct watch_order *order, const char *line,
			     size_t len, struct watch_event *event);

/* The event's line, as accepted, without a newline, into buf (snprintf's return). */
int watch_format(const struct watch_event *event, char *buf, size_t size);

/* gradeclass watch with its arguments (argv[0] "watch"). */
int watch_main(int argc, char **argv);

#endif
