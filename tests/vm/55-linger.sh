# shellcheck shell=sh
# vm-timeout: 180
# vm-cost: 40
# The master's listener lingers after its last user: a slave that connects
# between two master runs is handed to the next run; once the linger is
# over a slave is refused; rmmod closes a lingering listener at once.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

ko=$SYNCDEV_ROOT/kernel/syncdev.ko
linger=/sys/module/syncdev/parameters/listen_linger_ms
# A slave must connect within a short linger after the previous run: the
# short lingers and the delays grow with a slower (debug) kernel.
scale=${SYNCDEV_TIME_SCALE:-1}
gen a 5000 1
gen b 7000 2

# one_run IN OUT: a master run and its slave, both must succeed.
one_run() {
	master 1 "$1" fcntl >master.log 2>&1 &
	mpid=$!
	slave 1 "$2" fcntl 127.0.0.1 -w $WAIT_MS >slave.log 2>&1 && wait $mpid
}

check_equal "default listen_linger_ms" "$(cat $linger)" 2000

# slave_first NAME DELAY: a slave starts first and waits in the backlog;
# DELAY seconds later a master sends b; both must succeed and out == b.
slave_first() {
	slave 1 out fcntl 127.0.0.1 >slave.w.log 2>&1 &
	spid=$!
	sleep "$2"
	master 1 b fcntl >master.w.log 2>&1 &
	check_pair "$1" $! $spid b out master.w.log slave.w.log
	rm -f out
}

# Handover: the slave of the next run connects after the first master
# closed and before the second one accepts.
echo 10000 >$linger
if one_run a out.a; then pass "first run"; else fail "first run" "$(cat master.log slave.log)"; fi
slave_first "slave connected during the linger gets the next master's file" 1

# A master that comes after the linger while a slave waits in the backlog:
# the listener stays for it.
echo $((300 * scale)) >$linger
one_run a out.g || fail "run before the late master" "$(cat master.log slave.log)"
slave_first "a waiting slave keeps the listener for a late master" $((2 * scale))

# A slave that gave up while it waited is skipped by the next ACCEPT, which
# serves the live slave queued behind it.  A long linger: both slaves must
# find the listener, however long they take to start.
echo 10000 >$linger
one_run a out.i || fail "run before the dead slave" "$(cat master.log slave.log)"
n=$(klog_mark)
slave 1 out.dead fcntl 127.0.0.1 >slave.dead.log 2>&1 &
dead=$!
wait_slave_connected "$n" ||
	fail "the slave that will die connects" "$(cat slave.dead.log)"
kill -9 $dead
wait $dead 2>/dev/null
skipped0=$(klog_mark)
slave_first "ACCEPT skips a slave that went away and serves the next" 0.5
check_equal "the skip is logged" \
	"$(klog_since "$skipped0" 'skipped a connection whose slave had gone')" 1

# A slave that waits for a master that never comes is reset after
# listen_wait_ms, and the listener closes.
echo $((300 * scale)) >$linger
echo 1500 >/sys/module/syncdev/parameters/listen_wait_ms
one_run a out.k || fail "run before the lonely slave" "$(cat master.log slave.log)"
check_exit "slave nobody serves: exit 1 after listen_wait_ms" 1 \
	slave 1 out.l fcntl 127.0.0.1
check "the listener closes once the wait is over" wait_no_listener

# After the linger: refused, with a message that says so.
echo 100 >$linger
one_run a out.c || fail "run before the refusal" "$(cat master.log slave.log)"
sleep 1
check_exit "slave after the linger: exit 1" 1 slave 1 out.d fcntl 127.0.0.1 --wait 0
check_output "slave after the linger: refused" "[Rr]efused" slave 1 out.d fcntl 127.0.0.1 --wait 0
if [ -e out.d ]; then fail "refused slave leaves no file" "out.d exists"; else pass "refused slave leaves no file"; fi

# rmmod during a long linger: at once, and the port is free again.
echo 60000 >$linger
one_run a out.e || fail "run before rmmod" "$(cat master.log slave.log)"
check "rmmod while the listener lingers" rmmod syncdev
check_output "unload closed the listener" "stopped listening" sh -c 'dmesg | tail -n 5'
check "insmod again" insmod "$ko"
if one_run b out.f && cmp -s b out.f; then pass "transfer after reload binds the port"; else fail "transfer after reload binds the port" "$(cat master.log slave.log)"; fi
# The listener's reaper runs on the unbound system workqueue: newer
# kernels name work queued on system_wq, which they are retiring.
if dmesg | grep -q 'syncdev.*deprecated workqueue'; then
	fail "the reaper is not queued on a deprecated workqueue" "$(dmesg | grep 'deprecated workqueue')"
else
	pass "the reaper is not queued on a deprecated workqueue"
fi
finish
