# shellcheck shell=sh
# vm-timeout: 300
# vm-cost: 30
# sendfile() and splice() into /dev/master_device (its splice_write): the
# sizes around a page, one device buffer and 3 MiB + 1 by both, every
# byte checked on the slave and a marker written after them; the source
# rewritten or truncated after sendfile() returned (each byte the old one,
# the new one or zero, in place); a long sendfile() stopped by a signal
# and resumed; the slave closing mid-stream (ECONNRESET) (splicecheck).
# The fallbacks where sendfile() and splice() fail with EINVAL or ENOSYS
# (nosplice): the master's and the slave's fcntl mode, tcpcopy --device
# --zerocopy.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

tool_part splicecheck
wait_no_listener >/dev/null

# The fallbacks to the copy where sendfile() and splice() fail before
# anything went: EINVAL (a device without the splice operations), ENOSYS
# (a kernel or seccomp profile without the calls).  nosplice's filter
# makes them fail; --probe shows that it does, with exactly that errno,
# and fails without the filter or with the other errno.  Every byte of
# 1 MiB + 1 (above the 64 KiB from which master and slave take the
# calls) checked.
fallback_part() {
	e=$1 other=$2
	check "nosplice --errno $e: sendfile() and splice() fail with $e" \
		nosplice --errno "$e" -- nosplice --errno "$e" --probe
	check_exit "nosplice --probe $e: fails without the filter" 1 nosplice --errno "$e" --probe
	check_exit "nosplice --probe $e: fails under --errno $other" 1 \
		nosplice --errno "$other" -- nosplice --errno "$e" --probe
	nosplice --errno "$e" -- master 1 fb.in fcntl >master.log 2>&1 &
	mpid=$!
	slave 1 fb.out fcntl 127.0.0.1 -w "$WAIT_MS" >slave.log 2>&1 &
	check_pair "fcntl master under nosplice $e -> fcntl slave: identical, both exit 0" \
		$mpid $! fb.in fb.out
	rm -f fb.out
	master 1 fb.in fcntl >master.log 2>&1 &
	mpid=$!
	nosplice --errno "$e" -- slave 1 fb.out fcntl 127.0.0.1 -w "$WAIT_MS" >slave.log 2>&1 &
	check_pair "fcntl master -> fcntl slave under nosplice $e: identical, both exit 0" \
		$mpid $! fb.in fb.out
	rm -f fb.out
	nosplice --errno "$e" -- tcpcopy send fb.in --device --zerocopy >send.log 2>&1 &
	mpid=$!
	nosplice --errno "$e" -- tcpcopy recv 127.0.0.1 fb.out --device --zerocopy \
		-w "$WAIT_MS" >recv.log 2>&1 &
	check_pair "tcpcopy --device --zerocopy, both under nosplice $e: identical, both exit 0" \
		$mpid $! fb.in fb.out send.log recv.log
	rm -f fb.out
}

# The debug kernel has no seccomp (no Seccomp line in /proc/self/status).
if grep -q '^Seccomp:' /proc/self/status; then
	gen fb.in 1048577
	fallback_part EINVAL ENOSYS
	fallback_part ENOSYS EINVAL
	# Another ABI's numbers mean other calls: a 32-bit program is killed.
	if command -v fuzz32 >/dev/null; then
		check_exit "nosplice: a 32-bit program under it is killed (SIGSYS)" 159 \
			nosplice -- fuzz32 --help
	fi
	rm -f fb.in
else
	echo "# no seccomp in this kernel: the sendfile() and splice() fallbacks are not tested"
fi
