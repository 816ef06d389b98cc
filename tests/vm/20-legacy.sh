# shellcheck shell=sh
# vm-cost: 43
# A client written like the 2020 course programs (legacy ioctl numbers,
# one connection per file, a 2-page mapping: course_2page) moves files
# byte-exact; the legacy numbers' contract, its misuses and programs that
# mix them with the _IO* numbers (legacycheck).  tests/vm/25-course.sh
# and 26-course-variants.sh have every course style in full.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

ins="" outs=""
pages0=$(klog_mark)
for s in 0 1 8191 8192 8193 $COURSE_SMALL 1000000; do
	gen "in$s" "$s" 3
	ins="$ins in$s"
	outs="$outs out$s"
done

# shellcheck disable=SC2086
set -- $ins
n=$#
# shellcheck disable=SC2086
course_2page master $n $ins mmap >master.log 2>&1 &
mpid=$!
# shellcheck disable=SC2086
course_2page slave $n $outs mmap 127.0.0.1 >slave.log 2>&1
src=$?
wait $mpid
mrc=$?
if [ $mrc -eq 0 ] && [ $src -eq 0 ]; then
	pass "legacy client: both sides exit 0"
else
	fail "legacy client" "master exit $mrc, slave exit $src: $(tail -n 3 master.log slave.log)"
fi
for s in 0 1 8191 8192 8193 $COURSE_SMALL 1000000; do
	check_same "legacy client $s bytes identical" "in$s" "out$s"
done

# The legacy print ioctl logged a line per file from each side.
n=$(klog_since "$pages0" 'syncdev: master#[0-9]+: page vaddr=')
[ "$n" -eq 16 ] && pass "legacy print: one master page line per file" ||
	fail "legacy print: one master page line per file" "$n lines, want 16"

# The legacy address string with an explicit port.
gen one 5000 9
course_2page master 1 one mmap >master.log 2>&1 &
mpid=$!
course_2page slave 1 one.out mmap 127.0.0.1:2325 >slave.log 2>&1
src=$?
wait $mpid
if [ $? -eq 0 ] && [ $src -eq 0 ]; then check_same "legacy a.b.c.d:port" one one.out
else fail "legacy a.b.c.d:port" "$(tail -n 3 master.log slave.log)"; fi

for part in course misuse mixed; do
	tool_part legacycheck $part
	wait_no_listener >/dev/null
done
finish
