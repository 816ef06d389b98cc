# shellcheck shell=sh
# vm-timeout: 600
# vm-cost: 138
# Course programs written against other modules: both legacy
# styles (tests/tools/course_2page.c: 2 pages mapped at offset 0, length
# passed to receive; course_128page.c: 128 pages mapped at the file's own
# offset, receive without a length), called as ./master and ./slave as a
# grader does, both methods, the sizes around a page, the course's data
# sets and a file of exactly one buffer.  Each run ends with byte-exact
# copies, or - only where the style cannot work with this module - with a
# clear error from both programs, never with wrong bytes and exit 0.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

ko=$SYNCDEV_ROOT/kernel/syncdev.ko
sizes="0 1 4095 4096 4097 1048577"
# Still more than the 1 MiB + 1 file, which one 128-page mapping holds.
small_buffer_if_slow "$ko"
buf=$(buf_size)
# More than a buffer: the course's large data set, or less of it.
large=$(bulk $COURSE_LARGE $((buf + 1048577)))
for s in $sizes $buf $large; do
	gen "f$s" "$s" 21
done
small=""
for s in $COURSE_SMALL; do
	gen "s$s" "$s" 22
	small="$small s$s"
done

# as ROLE CLIENT: ./ROLE runs CLIENT, the way a grader runs ./master.
as() {
	mkdir -p "$2"
	ln -sf "$(command -v "$2")" "$2/$1"
	echo "$2/$1"
}

# course NAME MCLIENT SCLIENT METHOD FILE...: both sides exit 0, print the
# course's line, and every copy is identical.
course() {
	name=$1 mc=$2 sc=$3 method=$4
	shift 4
	outs="" i=0 total=0
	for f in "$@"; do
		i=$((i + 1))
		outs="$outs out.$i"
		total=$((total + $(wc -c <"$f")))
	done
	"$(as master "$mc")" $# "$@" "$method" >master.log 2>&1 &
	mpid=$!
	# shellcheck disable=SC2086
	"$(as slave "$sc")" $# $outs "$method" 127.0.0.1 >slave.log 2>&1
	src=$?
	wait $mpid
	mrc=$?
	i=0 bad=""
	for f in "$@"; do
		i=$((i + 1))
		cmp -s "$f" "out.$i" || bad="$bad $f"
	done
	if [ $mrc -eq 0 ] && [ $src -eq 0 ] && [ -z "$bad" ]; then
		pass "$name: identical"
		check_time_line "$name: master line" master.log $total
		check_time_line "$name: slave line" slave.log $total
	else
		fail "$name" "master $mrc, slave $src, differs:$bad: $(tail -n 2 master.log slave.log)"
	fi
	rm -f out.*
}

for c in course_2page course_128page; do
	for method in fcntl mmap; do
		for s in $sizes; do
			course "$c $method $s bytes" $c $c "$method" "f$s"
		done
		# shellcheck disable=SC2086
		course "$c $method course ten files" $c $c $method $small
	done
	for s in $buf $large; do
		course "$c fcntl $s bytes" $c $c fcntl "f$s"
	done
done
for s in $buf $large; do
	course "course_2page mmap $s bytes" course_2page course_2page mmap "f$s"
done
course "128-page master, 2-page slave, mmap" course_128page course_2page mmap f1048577 f4097
course "2-page master, 128-page slave, mmap" course_2page course_128page mmap f1048577 f4097
COURSE_RECV_ARG=0 course "128-page slave passing 0 as its length" \
	course_128page course_128page mmap f1048577

# A 128-page program maps the device at its file's offset: a file larger
# than the buffer reaches an offset the buffer does not have.  Both sides
# must say so and fail; with a buffer large enough the same run works.
"$(as master course_128page)" 1 "f$large" mmap >master.log 2>&1 &
mpid=$!
"$(as slave course_128page)" 1 out.1 mmap 127.0.0.1 >slave.log 2>&1
src=$?
wait $mpid
mrc=$?
[ $mrc -ne 0 ] && [ $src -ne 0 ] &&
	pass "128-page style, file larger than the buffer: both sides fail (master $mrc, slave $src)" ||
	fail "128-page style, file larger than the buffer: both sides fail" "master $mrc, slave $src"
check_output "the master says which mapping failed" \
	"mmap of the device \([0-9]+ bytes at offset $buf\): Invalid argument" cat master.log
rm -f out.1
# A file of exactly one buffer: the slave maps for a chunk after the last
# one (it cannot know the file ended) and is refused.
"$(as master course_128page)" 1 "f$buf" mmap >master.log 2>&1 &
mpid=$!
"$(as slave course_128page)" 1 out.1 mmap 127.0.0.1 >slave.log 2>&1
src=$?
wait $mpid
[ $src -ne 0 ] && pass "128-page style, a file of one buffer: the slave fails (exit $src)" ||
	fail "128-page style, a file of one buffer: the slave fails" "exit 0"
check_output "the slave says which mapping failed" \
	"mmap of the device \([0-9]+ bytes at offset $buf\): Invalid argument" cat slave.log
rm -f out.1

# A length that is usable but smaller than a chunk: the program takes the
# short chunk for the end of the file, and its check finds more data.
COURSE_RECV_ARG=100 "$(as slave course_128page)" 1 out.1 mmap 127.0.0.1 >slave.log 2>&1 &
spid=$!
"$(as master course_128page)" 1 f1048577 mmap >master.log 2>&1
wait $spid
src=$?
[ $src -ne 0 ] && pass "128-page slave with a 100-byte length: exits $src, not 0" ||
	fail "128-page slave with a 100-byte length fails" "exit 0"
check_output "and says why" "more data after a short chunk" cat slave.log
rm -f out.1

rmmod syncdev
check "insmod buf_size=16 MiB" insmod "$ko" buf_size=16777216
course "course_128page mmap $large bytes, 16 MiB buffer" \
	course_128page course_128page mmap "f$large"
rmmod syncdev
insmod "$ko"
finish
