# shellcheck shell=sh
# vm-timeout: 600
# vm-cost: 185
# What course programs vary besides their mapping style (tests/tools/
# course.h), each where it takes effect: the stray value a receive
# without a length passes (a slave in mmap mode), how many pages they map
# (both sides), the number of their page descriptor ioctl (mmap mode),
# the page dump asked for before connecting, and the 2018-2019 command
# line, one file per run (all four method pairs).  Byte for byte, on the
# course's data sets; each variant's edges only with one_pass
# (tests/lib-xfer.sh).
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

small_buffer_if_slow "$SYNCDEV_ROOT/kernel/syncdev.ko"
course_data
# With one_pass: each variant's edges, not every step.
recv_args="0 1 14 4096" page_counts="1 10 50 100" methods="fcntl mmap"
if one_pass; then
	recv_args="0 14" page_counts="1 100" methods=mmap
fi

# A receive without a length, with what was seen in the register; the
# one-page-per-receive slave on the large set too (a short receive in
# the middle would shift the rest of the file).
for v in $recv_args; do
	for c in course_128page course_page course_early; do
		# shellcheck disable=SC2086
		COURSE_RECV_ARG=$v course_run "$c, receive argument $v" $c $c \
			mmap mmap $MID $Q4097
	done
done
COURSE_RECV_ARG=14 course_run "course_page, receive argument 14, large set" \
	course_page course_page fcntl mmap "$LARGE"

# Masters and slaves mapping 1, 10, 50 or 100 pages and sending from the
# first: each the same on both sides, then a master of 100 pages and a
# slave of 1.
for p in $page_counts; do
	# shellcheck disable=SC2086
	COURSE_PAGES=$p course_run "$p pages mapped" course_2page course_2page \
		mmap mmap $MID $Q4097
done
COURSE_PAGES=100 "$(as master course_early)" 2 "$MID" q1 mmap >master.log 2>&1 &
_mpid=$!
COURSE_PAGES=1 "$(as slave course_early)" 2 out.1 out.2 mmap 127.0.0.1 >slave.log 2>&1
_src=$?
wait $_mpid
_mrc=$? _total=$(($(wc -c <"$MID") + 4097))
course_check "100-page master, 1-page slave" "$MID" q1
rm -f out.*

# The page descriptor ioctl under the numbers programs used: each prints
# a line (the course's module printed for any number it did not know).
# The mappings above may have opened a window of the module's page-dump
# rate limit (100 lines per 5 s) and spent it: the 24 lines here start a
# window of their own.
sleep 6
for n in 0x111 9020 0; do
	mark=$(klog_mark)
	# shellcheck disable=SC2086
	COURSE_PRINT_CMD=$n course_run "page descriptor ioctl $n" course_2page \
		course_2page mmap mmap $Q4097
	check_equal "ioctl $n printed a page line per file and side" \
		"$(klog_since "$mark" "$PAGE_LINE")" 8
done

# The page dump asked for before the first legacy call, under each
# number: the course's module printed it there too.  The lines are
# counted in a rate-limit window of their own (100 lines per 5 s, opened
# by the first dump after the last window closed).
sleep 6
for n in 9020 0x111 0; do
	mark=$(klog_mark)
	# shellcheck disable=SC2086
	COURSE_PRINT_CMD=$n course_run "page dump $n before connecting" \
		course_dumpfirst course_dumpfirst mmap mmap $Q4097
	check_equal "page dump $n before connecting: a line per file and side" \
		"$(klog_since "$mark" "$PAGE_LINE")" 8
done

# The 2018-2019 command line: ./master FILE METHOD, ./slave FILE METHOD IP,
# a run per file.
for m in fcntl mmap; do
	for s in $methods; do
		for f in s32 q1 $MID; do
			"$(as master course_early)" "$f" $m >master.log 2>&1 &
			_mpid=$!
			"$(as slave course_early)" out.1 "$s" 127.0.0.1 >slave.log 2>&1
			_src=$?
			wait $_mpid
			_mrc=$? _total=$(wc -c <"$f")
			course_check "one file per run $m-$s $f" "$f"
			rm -f out.1
		done
	done
done
finish
