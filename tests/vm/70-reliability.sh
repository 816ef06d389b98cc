# shellcheck shell=sh
# vm-timeout: 400
# vm-cost: 117
# The reliability guarantees of the module: the two-way stream,
# the progress timeout and keepalive, transfers and connects that survive
# stop/continue and handlers, the peer filter, mappings that survive
# MADV_DONTNEED and work read-only (relcheck); then the buffer cap, the
# memory cgroup charge, buf_size checked at load and rate-limited page
# dumps.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

ko=$SYNCDEV_ROOT/kernel/syncdev.ko

for part in twoway timeout signals connect peer mmap; do
	tool_part relcheck $part
	wait_no_listener >/dev/null
done
# The programs' side of a master stopped and continued in a blocked SEND
# is tests/vm/80-stopcont.sh.

check_output "the refused stranger is logged" \
	'refused a connection from 127\.0\.0\.5: the allowed peer is 127\.0\.0\.1' dmesg

# Page dumps: at most 100 lines per 5 s, then a line that counts the rest.
# The limit's window opens at the first dump after the last one closed, so
# the 2000 dumps wait out any window that the mappings above opened: a
# window open before them would let 100 more lines through when it closes.
sleep 6
n0=$(klog_mark)
out=$(relcheck dumps 2000)
echo "$out" | grep -E '^(PASS|FAIL) '
ms=$(echo "$out" | sed -n 's/^# elapsed_ms //p')
n=$(klog_since "$n0" "$PAGE_LINE")
allowed=$(( 100 * (${ms:-0} / 5000 + 1) ))
[ "$n" -ge 100 ] && [ "$n" -le "$allowed" ] &&
	pass "2000 page dumps in $ms ms log $n lines (100..$allowed)" ||
	fail "page dumps are rate-limited" "$n lines for 2000 dumps in $ms ms, want 100..$allowed"
sleep 6
relcheck dumps 1 >/dev/null
check_output "the dumps left out are counted in the log" \
	'syncdev: [0-9]+ page dumps not logged: at most 100 per 5 s' dmesg
# Two programs that dump at the same moment, within one window's 100: every
# line is logged (on several CPUs a limit that gave up on a busy lock
# dropped one side's lines).
sleep 6
n0=$(klog_mark)
relcheck dumps 40 >/dev/null & p1=$!
relcheck dumps 40 >/dev/null & p2=$!
wait $p1 $p2
check_equal "two programs' 80 page dumps at once: 80 lines" "$(klog_since "$n0" "$PAGE_LINE")" 80

# A memory cgroup is charged for the buffers its processes open.
mkdir -p /sys/fs/cgroup
if mount -t cgroup2 none /sys/fs/cgroup 2>/dev/null || [ -e /sys/fs/cgroup/cgroup.procs ]; then
	echo +memory >/sys/fs/cgroup/cgroup.subtree_control
	mkdir -p /sys/fs/cgroup/rel
	out=$(sh -c 'echo $$ >/sys/fs/cgroup/rel/cgroup.procs && exec relcheck memcg' 2>&1)
	echo "$out" | grep -E '^(PASS|FAIL|#) '
	rmdir /sys/fs/cgroup/rel
else
	fail "memory cgroup" "cannot mount cgroup2 on /sys/fs/cgroup"
fi

# The cap: with buf_size 8 MiB and max_buffer_mb 64, 8 buffers and no more;
# with the default cap (a quarter of RAM), ENOSPC long before any OOM kill.
rmmod syncdev
check "insmod max_buffer_mb=64" insmod "$ko" max_buffer_mb=64
tool_part relcheck cap 8
rmmod syncdev
insmod "$ko"
cap=$(cat /sys/module/syncdev/parameters/max_buffer_mb)
tool_part relcheck cap $((cap * 1048576 / $(buf_size)))
if dmesg | grep -Eq 'Out of memory|oom-kill|invoked oom-killer'; then
	fail "no OOM kill while sessions take buffers" "$(dmesg | grep -E 'oom' | tail -n 2)"
else
	pass "no OOM kill while sessions take buffers (cap $cap MiB)"
fi

# buf_size and max_buffer_mb are checked at load.
# refused NAME PARAM...: insmod with these parameters must fail.
refused() {
	name=$1
	shift
	if insmod "$ko" "$@" 2>/dev/null; then
		rmmod syncdev
		fail "$name" "insmod $* succeeded"
	else
		pass "$name"
	fi
}
rmmod syncdev
for bad in 0 4097 1073741824 2147483648; do
	refused "insmod buf_size=$bad is refused" buf_size=$bad
done
check_output "the refusal says why" \
	'buf_size=1073741824: must be a multiple of [0-9]+, at most [0-9]+ and at most half of RAM' dmesg
refused "insmod max_buffer_mb=4 (less than one buffer) is refused" max_buffer_mb=4
# A buffer a page above a whole MiB and above a quarter of RAM: the
# default cap is that one buffer, not a MiB count rounded below it.
ram_mib=$(($(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) / 1024))
odd=$(((ram_mib / 4 + 1) * 1048576 + 4096))
if insmod "$ko" buf_size=$odd; then
	pass "insmod buf_size=$odd (a page above a MiB, over a quarter of RAM) loads"
	rmmod syncdev
else
	fail "insmod buf_size=$odd loads" "$(dmesg | tail -n 1)"
fi
refused "insmod allowed_peer=bogus is refused" allowed_peer=bogus
refused "insmod keepalive_cnt=0 is refused" keepalive_cnt=0
check "insmod with defaults again" insmod "$ko"
finish
