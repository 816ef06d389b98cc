// SPDX-License-Identifier: GPL-2.0
/*
 * The control channel's line protocol (user/gradeclass/watch_event.c):
 * the four events accepted exactly so and in order, and every other
 * line a guest could send ignored: look-alikes, leading zeros, extra
 * fields or spaces, a case out of range or out of order, a run past the
 * case's files or repeated, anything after "done", an overlong line.
 * Between two guests, ready, listening and status too, each once in its
 * place (a run or end only after the last run's status); in one guest
 * they are ignored.  What the host relays is the line as it accepted it.
 */
#include "check.h"
#include "watch.h"

#include <string.h>

static const unsigned files[3] = { 1, 3, 1 };

static enum watch_kind feed(struct watch_order *o, const char *line)
{
	struct watch_event e;

	return watch_accept(o, line, strlen(line), &e);
}

static void order_rules(void)
{
	struct watch_order o = { .files = files, .cases = 3 };

	CHECK(feed(&o, "run 1 2") == WATCH_NONE, "a run before any begin is ignored");
	CHECK(feed(&o, "end 1") == WATCH_NONE, "an end before any begin is ignored");
	CHECK(feed(&o, "begin 2\r") == WATCH_BEGIN, "begin 2 (with a carriage return)");
	CHECK(feed(&o, "begin 2") == WATCH_NONE, "the same case again is ignored");
	CHECK(feed(&o, "begin 1") == WATCH_NONE, "an earlier case is ignored");
	CHECK(feed(&o, "run 2 1") == WATCH_NONE, "run 1 is the begin itself: ignored");
	CHECK(feed(&o, "run 2 2") == WATCH_RUN, "run 2 2");
	CHECK(feed(&o, "run 2 2") == WATCH_NONE, "a run repeated is ignored");
	CHECK(feed(&o, "run 1 3") == WATCH_NONE, "a run of another case is ignored");
	CHECK(feed(&o, "run 2 3") == WATCH_RUN, "run 2 3, the case's last file");
	CHECK(feed(&o, "run 2 4") == WATCH_NONE, "a run past the case's files is ignored");
	CHECK(feed(&o, "end 1") == WATCH_NONE, "the end of another case is ignored");
	CHECK(feed(&o, "end 2") == WATCH_END, "end 2");
	CHECK(feed(&o, "end 2") == WATCH_NONE, "an end repeated is ignored");
	CHECK(feed(&o, "run 2 3") == WATCH_NONE, "a run after its case's end is ignored");
	CHECK(feed(&o, "begin 4") == WATCH_NONE, "a case past the boot's cases is ignored");
	CHECK(feed(&o, "begin 3") == WATCH_BEGIN, "begin 3");
	CHECK(feed(&o, "done") == WATCH_DONE, "done");
	CHECK(feed(&o, "done") == WATCH_NONE, "a second done is ignored");
	CHECK(feed(&o, "end 3") == WATCH_NONE, "an end after done is ignored");
}

static void form_rules(void)
{
	static const char *const bad[] = {
		"begin 01", "begin 0", "begin  1", " begin 1", "begin 1 ", "begin1",
		"Begin 1", "begin +1", "begin -1", "begin 1x", "begin 1\r\r",
		"begin 1234567890", "begin", "run 1", "run 1  2", "run 1 2 3",
		"end 1 1", "done ", "done\r\r", "syncdev-vm: test grade/1vm/x",
		"begin ../1", "begin 1\tx", "", "\r",
		"begin 1                                                   ", NULL
	};
	struct watch_order o = { .files = files, .cases = 3 };
	int i, taken = 0;

	for (i = 0; bad[i]; i++)
		if (feed(&o, bad[i]) != WATCH_NONE)
			taken++;
	CHECK(taken == 0 && o.begun == 0, "%d malformed lines all ignored", i);
	CHECK(feed(&o, "begin 1") == WATCH_BEGIN, "begin 1 after them");
}

static void pair_rules(void)
{
	struct watch_order one = { .files = files, .cases = 3 };
	struct watch_order o = { .files = files, .cases = 3, .pair = 1 };

	feed(&one, "begin 1");
	CHECK(feed(&one, "ready 1") == WATCH_NONE && feed(&one, "status 1 1 ok") == WATCH_NONE &&
	      feed(&one, "listening 1 1") == WATCH_NONE,
	      "one guest: ready, listening and status are ignored");
	CHECK(feed(&one, "end 1") == WATCH_END, "one guest: end without a status");
	CHECK(feed(&o, "ready 1") == WATCH_NONE, "a ready before its begin is ignored");
	CHECK(feed(&o, "begin 2") == WATCH_BEGIN, "two guests: begin 2");
	CHECK(feed(&o, "listening 2 1") == WATCH_NONE, "listening before ready is ignored");
	CHECK(feed(&o, "status 2 1 ok") == WATCH_NONE, "a status before ready is ignored");
	CHECK(feed(&o, "ready 1") == WATCH_NONE, "a ready of another case is ignored");
	CHECK(feed(&o, "ready 2") == WATCH_READY, "ready 2");
	CHECK(feed(&o, "ready 2") == WATCH_NONE, "a ready repeated is ignored");
	CHECK(feed(&o, "run 2 2") == WATCH_NONE, "a run before the last run's status is ignored");
	CHECK(feed(&o, "end 2") == WATCH_NONE, "an end before the last run's status is ignored");
	CHECK(feed(&o, "listening 2 2") == WATCH_NONE, "listening of a later run is ignored");
	CHECK(feed(&o, "listening 2 1") == WATCH_LISTENING, "listening 2 1");
	CHECK(feed(&o, "listening 2 1") == WATCH_NONE, "listening repeated is ignored");
	CHECK(feed(&o, "status 2 1 maybe") == WATCH_NONE && feed(&o, "status 2 1 ok ") == WATCH_NONE &&
	      feed(&o, "status 2 1 OK") == WATCH_NONE && feed(&o, "status 2 1") == WATCH_NONE &&
	      feed(&o, "status 2 1 okfailed") == WATCH_NONE && feed(&o, "status 2 01 ok") == WATCH_NONE,
	      "a status but ok or failed is ignored");
	CHECK(feed(&o, "status 2 1 ok") == WATCH_STATUS, "status 2 1 ok");
	CHECK(feed(&o, "status 2 1 failed") == WATCH_NONE, "a second status of a run is ignored");
	CHECK(feed(&o, "listening 2 1") == WATCH_NONE, "listening after the status is ignored");
	CHECK(feed(&o, "run 2 2") == WATCH_RUN, "run 2 2 after the status");
	CHECK(feed(&o, "status 2 2 failed") == WATCH_STATUS, "status 2 2 failed (no listening)");
	CHECK(feed(&o, "end 2") == WATCH_END, "end 2 after the status");
	CHECK(feed(&o, "status 2 2 ok") == WATCH_NONE, "a status after the end is ignored");
	CHECK(feed(&o, "begin 3") == WATCH_BEGIN && feed(&o, "done") == WATCH_DONE,
	      "done in the middle of a case");
}

static void relayed_lines(void)
{
	static const char *const lines[] = {
		"begin 1", "ready 1", "listening 1 1", "status 1 1 failed", "end 1", "done\r", NULL
	};
	static const char *const want[] = {
		"begin 1", "ready 1", "listening 1 1", "status 1 1 failed", "end 1", "done", NULL
	};
	struct watch_order o = { .files = files, .cases = 3, .pair = 1 };
	struct watch_event e;
	char buf[WATCH_LINE_MAX + 1];
	int i, same = 0;

	for (i = 0; lines[i]; i++) {
		watch_accept(&o, lines[i], strlen(lines[i]), &e);
		watch_format(&e, buf, sizeof(buf));
		same += !strcmp(buf, want[i]);
	}
	CHECK(same == i, "each accepted line is written back as it came (%d of %d)", same, i);
	CHECK(watch_accept(&o, "end 1", 5, &e) == WATCH_NONE && e.k == 0 && e.r == 0,
	      "an ignored line leaves no case in the event");
}

int main(void)
{
	order_rules();
	form_rules();
	pair_rules();
	relayed_lines();
	return check_done();
}
