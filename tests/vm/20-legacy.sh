# shellcheck shell=sh
# vm-timeout: 300
# vm-cost: 90
# A client written like the 2020 course programs (legacy ioctl numbers,
# one connection per file, a 2-page mapping: course_2page) moves files
# byte-exact; the legacy numbers' contract, its misuses and programs that
# mix them with the _IO* numbers (legacycheck).  The course's choices a
# grader sets (legacy_read, legacy_send_result) with the clients that need
# them (course_padded, course_advance); who may make a session a legacy
# one; page flags and counts only for CAP_SYS_ADMIN; one buffer share for
# a user's namespaces (nsshare).  tests/vm/25-course.sh and
# 26-course-variants.sh have every course style in full.
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

for part in course misuse mixed rules; do
	tool_part legacycheck $part
	wait_no_listener >/dev/null
done

params=/sys/module/syncdev/parameters
# padded_run NAME: course_padded over one connection for all files.
padded_run() {
	# shellcheck disable=SC2086
	course_padded master 6 $padded >master.log 2>&1 &
	_mpid=$!
	# shellcheck disable=SC2086
	course_padded slave 6 $padded_out 127.0.0.1 >slave.log 2>&1
	_src=$?
	wait $_mpid
	_mrc=$?
	_bad=""
	for _f in $padded; do
		cmp -s "$_f" "$_f.out" || _bad="$_bad $_f"
	done
}

# The 2020 starter's read(): a slave that reads the last bytes of a padded
# 512-byte chunk gets every file right with legacy_read=starter; with the
# default (fill) the padding stays in the stream and the copies go wrong.
padded="" padded_out=""
for s in 0 1 511 512 513 5000; do
	gen "p$s" "$s" 5
	padded="$padded p$s"
	padded_out="$padded_out p$s.out"
done
echo starter >"$params/legacy_read"
padded_run
if [ $_mrc -eq 0 ] && [ $_src -eq 0 ] && [ -z "$_bad" ]; then
	pass "legacy_read=starter: a slave reading the last bytes of a padded chunk: 6 files identical"
else
	fail "legacy_read=starter: padded chunks" "master $_mrc, slave $_src, differs:$_bad: $(tail -n 2 master.log slave.log)"
fi
tool_part legacycheck starter
wait_no_listener >/dev/null
echo fill >"$params/legacy_read"
padded_run
[ -n "$_bad" ] || [ $_src -ne 0 ] &&
	pass "legacy_read=fill: the same program's copies differ (the parameter is what serves it)" ||
	fail "legacy_read=fill: padded chunks" "every copy identical without legacy_read=starter"
check_equal "legacy_read reads back" "$(cat "$params/legacy_read")" fill
wait_no_listener >/dev/null

# SEND's result: a master that advances its offset by it (the default,
# bytes), one that takes anything but 0 for a failure (zero); a page dump
# of address 0 after every file, with nothing mapped in fcntl mode: 0.
sleep 6
mark=$(klog_mark)
course_run "course_advance mmap-mmap, legacy_send_result=bytes" \
	course_advance course_advance mmap mmap in0 in8193 in1000000
course_run "course_advance fcntl-fcntl (page dump of 0, nothing mapped)" \
	course_advance course_advance fcntl fcntl in0 in8193
check_equal "a 'nothing mapped' line per file and side in fcntl mode" \
	"$(klog_since "$mark" 'syncdev: (master|slave)#[0-9]+: page dump of 0x0: nothing mapped there')" 4
tool_part legacycheck sendresult
echo zero >"$params/legacy_send_result"
COURSE_SEND_RESULT=zero course_run "course_advance expecting 0, legacy_send_result=zero" \
	course_advance course_advance mmap mmap in0 in8193
tool_part legacycheck sendresult
if echo words >"$params/legacy_send_result" 2>/dev/null; then
	fail "legacy_send_result=words" "accepted"
else
	check_equal "legacy_send_result=words: refused, zero kept" \
		"$(cat "$params/legacy_send_result")" zero
fi
echo bytes >"$params/legacy_send_result"
wait_no_listener >/dev/null

# Page flags, reference and map counts only for CAP_SYS_ADMIN, as the PFN;
# and uid 4400's buffers in a user namespace of its own count as its own.
modes=$(stat -c %a /dev/master_device /dev/slave_device)
chmod 0666 /dev/master_device /dev/slave_device
sleep 6
mark=$(klog_mark)
tool_part asuser 65534 65534 legacycheck dump
check_equal "uid 65534's page dump: pfn, counts and flags zero" \
	"$(klog_since "$mark" 'pfn=0x0 refcount=0 mapcount=0 flags=0x0\(.* pte=0x0 \(present')" 1
mark=$(klog_mark)
tool_part legacycheck dump
check_equal "root's page dump: pfn, counts and flags shown" \
	"$(klog_since "$mark" 'pfn=0x[1-9a-f][0-9a-f]* refcount=[1-9][0-9]* mapcount=[1-9][0-9]* flags=0x[1-9a-f]')" 1
tool_part nsshare 4400
# shellcheck disable=SC2086
set -- $modes
chmod "$1" /dev/master_device
chmod "$2" /dev/slave_device
finish
