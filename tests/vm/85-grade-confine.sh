# shellcheck shell=sh
# vm-timeout: 240
# vm-cost: 20
# The grading harness's program launch (scripts/grade/guest/grade-launch.sh,
# start_side: confine, then capdrop) on hostile programs: each attack on the
# harness, the console, the kernel log or its level, the reference programs
# or the other side's files fails, and the harness's files stay as they
# were; a slave that fills its disk fails its case alone, with that
# reason; the real master and slave, launched the same way, still move a
# file through the device, and the slave's result counts its bytes.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"
. "$SYNCDEV_ROOT/scripts/grade/guest/grade-launch.sh"
# shellcheck disable=SC2034 # work, share, input, cw, cset, outdir, GRADE_*: grade-launch.sh's
work=/tmp/grade share=/mnt/share input=/mnt/input cw=/tmp/grade/case cset=small
outdir=$work/slave/out secs=60
GRADE_CLI="master {n} {files} {method}" GRADE_SLAVE_CLI="slave {n} {files} {method} {ip}"
rm -rf "$work"
mkdir -p "$work/bin" "$work/data/small" "$outdir" "$cw" "$share" "$input"
echo secret >"$share/results"
echo secret >"$input/seed"
printf '/dev/master_device\n/dev/slave_device\n' >"$work/devs"
old_userns=$(cat /proc/sys/user/max_user_namespaces)
# The controls: before, this kernel lets root make one and mount a sysfs
# in it.
if unshare -U true 2>&1 | grep -q 'Invalid argument'; then
	# A kernel built without user namespaces (the debug kernel): nothing
	# to turn off, and the attacks below that need one fail all the same.
	echo "# no user namespaces in this kernel: the controls are left out"
else
	check "before: a user namespace can be made" unshare -U true
	check "before: a sysfs can be mounted in one" unshare -U -r -m -n sh -c 'mount -t sysfs sysfs /mnt'
fi
check "no_user_namespaces sets user.max_user_namespaces" no_user_namespaces
check_equal "user.max_user_namespaces is 0" "$(cat /proc/sys/user/max_user_namespaces)" 0

# wait_listener's test: the harness keeps no TCP port (two guests keep in
# step over the control channel), so any listener is the programs', on
# 2390 and 2391 (peersync's, the test suite's) too.
wait_no_listener >/dev/null
if listening; then
	fail "no listener before the test's" "$(cat /proc/net/tcp)"
else
	pass "no listener before the test's"
fi
for port in 2390 2391; do
	nc -l -p "$port" </dev/null >/dev/null 2>&1 &
	l1=$!
	# nc listens within a moment, a slow (debug) kernel's within seconds.
	n=0
	while ! listening && [ "$n" -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	check "a listener on $port is the programs'" listening
	kill "$l1" 2>/dev/null
	wait "$l1" 2>/dev/null
	n=0
	while listening && [ "$n" -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
done

# The hostile program: one line "ATTACK: reached" or "ATTACK: stopped" per
# attack; first its own input, its devices and loopback, which it keeps.
cat >"$work/bin/hostile" <<'EOF'
#!/bin/sh
try() { n=$1; shift; if "$@" >/dev/null 2>&1; then echo "$n: reached"; else echo "$n: stopped"; fi; }
try "own files" test -r "$OWN"
try "device nodes" test -c /dev/master_device -a -c /dev/slave_device
try "kmsg write" sh -c 'echo "<3>syncdev-grade: case 1vm/small.mmap-mmap begins" >/dev/kmsg'
try "console write" sh -c 'echo syncdev-vm: test grade/1vm/x >/dev/console'
try "serial port" sh -c 'ls /dev/ttyS* /dev/hvc* /dev/vport* | grep .'
try "memory" sh -c 'ls /dev/mem /dev/port | grep .'
try "log level" dmesg -n 1
try "printk parameter" sh -c 'echo Y >/sys/module/printk/parameters/ignore_loglevel'
try "printk sysctl" sh -c 'echo 1 >/proc/sys/kernel/printk'
try "module parameter" sh -c 'echo 0 >/sys/module/syncdev/parameters/listen_linger_ms'
try "reference master" /opt/syncdev/build/master --help
try "share" sh -c 'cat /mnt/share/results /mnt/input/seed'
try "mknod kmsg" mknod /tmp/kmsg c 1 11
try "root file system" sh -c 'echo x >/bin/evil'
try "init's root" ls /proc/1/root/tmp/grade/bin
try "inherited descriptor" sh -c 'echo x >&7'
try "control descriptor" sh -c 'echo done >&9'
try "user namespace" unshare -U true
try "sysfs in a user namespace" unshare -U -r -m -n sh -c 'mount -t sysfs sysfs /mnt'
try "mount namespace" unshare -m true
try "other side's files" sh -c 'ls -A "$OTHER" | grep .'
# The last: rename the harness's directory, then plant the other side's
# files under the old name.
mv /tmp/grade /tmp/gone 2>/dev/null
try "plant" sh -c 'mkdir -p /tmp/grade/slave/out && echo planted >/tmp/grade/slave/out/planted &&
	test -f /tmp/grade/slave/out/planted && echo planted >/tmp/grade/data/small/planted'
echo h >/proc/sysrq-trigger 2>/dev/null
exit 0
EOF
chmod +x "$work/bin/hostile"
echo data >"$work/data/small/file1"
cp "$work/bin/hostile" "$work/bin/master"
cp "$work/bin/hostile" "$work/bin/slave"

# run SIDE: launch SIDE as grade.sh does, with descriptor 7 open and 9 (the
# harness's control channel) too, and wait.
run() {
	rm -f "$cw/$1.rc"
	start_side "$1" fcntl 127.0.0.1 "$work/data/small/file1" 7>"$cw/fd7" 9>"$cw/fd9"
	n=0
	while ! [ -f "$cw/$1.rc" ] && [ $n -lt 600 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	kill "$(cat "$cw/$1.dog")" 2>/dev/null
}

# attacks SIDE: every attack of SIDE's run was stopped.
attacks() {
	for a in "kmsg write" "console write" "serial port" "memory" "log level" \
		"printk parameter" "printk sysctl" "module parameter" "reference master" \
		"share" "mknod kmsg" "root file system" "init's root" "inherited descriptor" \
		"control descriptor" \
		"user namespace" "sysfs in a user namespace" "mount namespace" "other side's files"; do
		check_output "$1: $a is stopped" "^$a: stopped\$" cat "$cw/$1.out"
	done
	check_output "$1: its own files stay" "^own files: reached\$" cat "$cw/$1.out"
	check_output "$1: the devices stay" "^device nodes: reached\$" cat "$cw/$1.out"
}

m0=$(klog_mark)
OWN=$work/data/small/file1 OTHER=$outdir
export OWN OTHER
level=$(cat /proc/sys/kernel/printk)
run master
check_equal "master: exit 0" "$(cat "$cw/master.rc")" 0
attacks master
check "the master planted nothing in the slave's outputs" test ! -e "$outdir/planted"
OWN=$outdir OTHER=$work/data/small
run slave
check_equal "slave: exit 0" "$(cat "$cw/slave.rc")" 0
attacks slave
check_equal "no kernel line from the programs" \
	"$(klog_since "$m0" 'syncdev-grade: case|sysrq: ')" 0
check_equal "the console's log level is unchanged" "$(cat /proc/sys/kernel/printk)" "$level"
check "the harness's directory was not renamed" test -x "$work/bin/hostile"
check "nothing planted in the master's input" test ! -e "$work/data/small/planted"
check "the share is intact" grep -qx secret "$share/results"
check "no /bin/evil" test ! -e /bin/evil

# A slave that writes until "No space left on device", in its directory
# and in its /tmp, after a sparse output file of a terabyte: each is the
# case's room (room_up, confine --tmp-size), so the case fails with that
# reason, the harness's /tmp keeps its space and its result is whole, the
# output is handed over cut short, and the next case starts with an empty
# room.
. "$SYNCDEV_ROOT/scripts/grade/guest/grade-check.sh"
# shellcheck disable=SC2034 # total, nfiles, cname, GRADE_STRICT_PAGES: theirs
total=100000 nfiles=1 cname=small.fcntl-fcntl GRADE_STRICT_PAGES=0
room_size
check_equal "the room of a 100000-byte case is the floor" "$room" 16777216
check "the slave's directory is mounted" room_up
cat >"$work/bin/slave" <<'EOF'
#!/bin/sh
dd if=/dev/zero of=file1 bs=1 count=1 seek=1099511627775 2>/dev/null
cat /dev/zero >fill 2>/dev/null
cat /dev/zero >/tmp/fill 2>/dev/null
echo "wrote $(wc -c <fill) and $(wc -c </tmp/fill)"
exit 1
EOF
rm -rf "$cw"
mkdir -p "$cw/put"
run slave
read -r _ in_dir _ in_tmp <"$cw/slave.out"
[ "${in_dir:-0}" -gt 0 ] && [ "$in_dir" -le "$room" ] && [ "${in_tmp:-0}" -gt 0 ] &&
	[ "$in_tmp" -le "$room" ] &&
	pass "the filler stopped at its room ($in_dir and $in_tmp bytes)" ||
	fail "the filler stopped at its room" "$(cat "$cw/slave.out")"
head -c 4194304 /dev/zero >"$cw/room-check" 2>/dev/null &&
	pass "the harness can still write 4 MiB" ||
	fail "the harness can still write 4 MiB" "$(df -k /tmp)"
check_side slave fcntl fcntl
res_=$cw/put/small.fcntl-fcntl.slave.res
check_output "the filler's case fails" "^status=fail\$" cat "$res_"
check_output "its reason: disk full" "^why.exits=slave: disk full: it filled" cat "$res_"
check_equal "the result is whole (end=1 last)" "$(tail -n 1 "$res_")" "end=1"
check "the filler's output is handed in" grep -q '^wrote ' "$cw/put/small.fcntl-fcntl.slave.out"
# Its output file1, sparse, a terabyte long: handed over cut short.
# shellcheck disable=SC2034 # res: hand_over_outputs'
res=$share/res
mkdir -p "$res" "$work/sets"
echo "file1 100000" >"$work/sets/small"
hand_over_outputs
z=$(wc -c <"$res/small.fcntl-fcntl.files/file1")
[ "${z:-0}" -gt 100000 ] && [ "$z" -le 1048576 ] &&
	pass "a terabyte-long output is handed over cut to 1 MiB ($z bytes)" ||
	fail "a terabyte-long output is handed over cut to 1 MiB" "got ${z:-no file}"
check "the filler's room is gone" test ! -e "$outdir"

# The course's programs, launched the same way (the next case, in a new
# room), move a file through the device; the slave writes it in its own
# directory.
rm -rf "$cw"
mkdir -p "$cw"
check "the next case's room is mounted" room_up
check_equal "the next case's room is empty" "$(ls -A "$outdir")" ""
head -c 100000 /dev/urandom >"$work/data/small/file1"
cp "$(command -v master)" "$work/bin/master"
cp "$(command -v slave)" "$work/bin/slave"
start_side master mmap "" "$work/data/small/file1"
sleep 1
start_side slave mmap 127.0.0.1 file1
n=0
while ! { [ -f "$cw/master.rc" ] && [ -f "$cw/slave.rc" ]; } && [ $n -lt 600 ]; do
	sleep 0.1
	n=$((n + 1))
done
check_equal "confined master: exit 0" "$(cat "$cw/master.rc")" 0
check_equal "confined slave: exit 0" "$(cat "$cw/slave.rc")" 0
check_same "confined pair: identical" "$work/data/small/file1" "$outdir/file1"
# shellcheck disable=SC2034 # rtmp, side_, GRADE_STRICT_PAGES, klog_name: grade-check.sh's
mark=$m0 rtmp=$cw/res GRADE_STRICT_PAGES=1 klog_name=klog
mkdir -p "$cw/put"
# bytes SIDE: the device_bytes value of SIDE's result.
bytes() {
	side_=$1
	: >"$rtmp"
	device_bytes
	sed -n 's/^device_bytes=//p' "$rtmp"
}
# A forged line (the user facility, as any /dev/kmsg writer's) never counts.
echo "<6>syncdev: slave#999: closed connection with 10.0.0.1:1: sent 0 bytes, received 99999999 bytes" >/dev/kmsg
echo "<6>syncdev: master#999: closed connection with 10.0.0.1:1: sent 99999999 bytes, received 0 bytes" >/dev/kmsg
case_klog
for s in master slave; do
	b=$(bytes $s)
	[ "${b:-0}" -ge 100000 ] && [ "$b" -lt 99999999 ] &&
		pass "device_bytes of the $s: $b, at least the file's 100000" ||
		fail "device_bytes of the $s" "got '$b', want 100000 to 99999999"
done
# Without syncdev's lines (plain TCP) the count is 0.
: >"$cw/klog.kernel"
check_equal "device_bytes without the device's lines" "$(bytes slave)" 0
kill "$(cat "$cw/master.dog")" "$(cat "$cw/slave.dog")" 2>/dev/null

echo "$old_userns" >/proc/sys/user/max_user_namespaces
room_down
rm -rf "$work" /mnt/share /mnt/input
finish
