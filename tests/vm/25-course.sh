# shellcheck shell=sh
# vm-timeout: 900
# vm-cost: 180
# Course programs written against the course's module (docs/legacy.md,
# "Legacy numbers"), called as ./master and ./slave as a grader does:
# every style of tests/tools/course_*.c - 2 pages mapped at offset 0 with
# the length passed (course_2page), 128 pages mapped at the file's offset
# and a receive without a length (course_128page), one page per receive
# assumed and the device mapped after the receive (course_page), the
# device mapped before connecting and never unmapped (course_early),
# read() and write() of 512 bytes with every read() assumed full
# (course_read512), the page descriptor asked for before connecting
# (course_dumpfirst) - in
# all four method pairs on the sizes around a page and the course's data
# sets (ten small files, four of 4097 bytes, 1 MiB + 3 bytes, half of it
# under a debug kernel: course_data, tests/lib-xfer.sh), and in mmap
# mode on both sides on its 12,022,885 bytes (fcntl mode is the same
# code in every client, course.h: 26-course-variants.sh moves that size
# through it), byte for byte; then masters and slaves of different styles
# together.  With one_pass (tests/lib-xfer.sh) the data sets go in mmap
# mode only.  Under a debug kernel the large set, whose only path of its
# own is the buffer's wrap (the same kernel code for every style), goes
# through the two styles that map it differently (128 pages at the file's
# offset; 512-byte reads), and the 512-byte slaves meet each master on
# the 1 MiB set alone: the per-page styles spend tens of ms of debug
# checks on each page's ioctl, and each more megabyte of them found
# nothing the first did not.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

# The large set stays larger than the buffer with a quarter of the data.
small_buffer_if_slow "$SYNCDEV_ROOT/kernel/syncdev.ko"
course_data
edges=""
for s in 0 1 4095 4096; do
	gen "e$s" "$s" 21
	edges="$edges e$s"
done
for c in course_2page course_128page course_page course_early \
	course_read512 course_dumpfirst; do
	# shellcheck disable=SC2086
	course_pairs "$c, course data sets," "$c" "$c" $edges $SMALL $Q4097 \
		"$MID"
	if ! slow_kernel || [ "$c" = course_128page ] ||
		[ "$c" = course_read512 ]; then
		course_run "$c mmap-mmap, large set" "$c" "$c" mmap mmap "$LARGE"
	fi
done

# A file of exactly one buffer: a 128-page slave maps once more, at the
# buffer's end, for the chunk after the last.
gen buf "$(buf_size)" 25
course_run "course_128page, a file of one buffer" course_128page \
	course_128page mmap mmap buf
# A slave that takes every read() for 512 bytes behind each style's
# master: the sender outruns it, and where the window it stops at ends
# depends on the kernel (docs/design.md, "Full reads").
read512_sets="$MID $LARGE"
slow_kernel && read512_sets=$MID
for c in course_2page course_128page course_page course_early; do
	# shellcheck disable=SC2086 # one or two file names
	course_run "$c master, course_read512 slave fcntl" "$c" \
		course_read512 mmap fcntl $read512_sets
	course_run "$c master fcntl, course_read512 slave mmap" "$c" \
		course_read512 fcntl mmap "$MID"
done
# Each style's master with the next style's slave.
set -- course_2page course_128page course_page course_early course_read512 \
	course_dumpfirst course_2page
while [ $# -gt 1 ]; do
	course_run "$1 master, $2 slave" "$1" "$2" mmap mmap "$MID" q1
	shift
done
finish
