# shellcheck shell=sh
# vm-timeout: 300
# kill -9 of either side in the middle of a 64 MiB transfer: the other
# side fails (non-zero exit) instead of hanging, and no output file is
# left looking complete.  The harness then checks that rmmod succeeds.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

gen big 67108864 11

# wait_gone PID: wait for PID to exit, at most 30 s; its exit status, or
# 255 if it is still running (then it is killed).
wait_gone() {
	i=0
	while kill -0 "$1" 2>/dev/null && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 "$1" 2>/dev/null; then
		kill -9 "$1"
		wait "$1"
		return 255
	fi
	wait "$1"
}

for victim in master slave; do
	for m in fcntl mmap; do
		name="kill -9 $victim ($m)"
		# Small buffers: many round trips, so there is a middle to hit.
		n=$(klog_count "$ACCEPTED")
		master 1 big $m -b 64K >master.log 2>&1 &
		mpid=$!
		slave 1 out $m 127.0.0.1 -b 64K -w $WAIT_MS >slave.log 2>&1 &
		spid=$!
		if ! wait_connected "$n"; then
			fail "$name" "the transfer did not start: $(cat master.log slave.log)"
			kill -9 $mpid $spid 2>/dev/null
			wait
			continue
		fi
		if [ $victim = master ]; then
			# A stopped slave cannot drain the stream: the master is
			# certainly mid-transfer when it dies.
			kill -STOP $spid
			kill -9 $mpid
			wait $mpid
			kill -CONT $spid
			wait_gone $spid
			rc=$?
			log=slave.log
		else
			kill -9 $spid
			wait $spid
			wait_gone $mpid
			rc=$?
			log=master.log
		fi
		if [ $rc -ne 0 ] && [ $rc -ne 255 ]; then
			pass "$name: the other side exits $rc"
		else
			fail "$name: the other side exits non-zero" "exit $rc: $(cat $log)"
		fi
		if [ -e out ] && cmp -s big out; then
			# The transfer won the race: complete and correct is fine.
			echo "# $name: the transfer finished before the kill"
		elif [ -e out ]; then
			fail "$name: no incomplete output" "out exists and differs"
		else
			pass "$name: no incomplete output"
		fi
		[ $victim = master ] && check_output "$name: slave says why" \
			"closed the connection in the middle of out" cat slave.log
		[ $victim = slave ] && check_output "$name: master says why" \
			"sending big: the slave is gone" cat master.log
		rm -f out .out.*
	done
done
finish
