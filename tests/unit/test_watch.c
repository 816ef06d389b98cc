// SPDX-License-Identifier: GPL-2.0
/*
 * The control channel's line protocol (user/gradeclass/watch_event.c):
 * the four events accepted exactly so and in order, and every other
 * line a guest could send ignored: look-alikes, leading zeros, extra
 * fields or spaces, a case out of range or out of order, a run past the
 * case's files or repeated, anything after "done", an overlong line.
 */
#include "check.h"
#include "watch.h"

#include <string.h>

static const unsigned files[3] = { 1, 3, 1 };

static enum watch_kind feed(struct watch_order *o, const char *line)
{
	unsigned k, r;

	return watch_accept(o, line, strlen(line), &k, &r);
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

int main(void)
{
	order_rules();
	form_rules();
	return check_done();
}
