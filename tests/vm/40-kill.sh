# shellcheck shell=sh disable=SC3028 # busybox ash has RANDOM, seedable
# vm-timeout: 600
# vm-cost: 86
# kill -9 of either side in the middle of a 64 MiB transfer: the other
# side fails (non-zero exit) with a message instead of hanging, and no
# output file is left looking complete.  Then a loop that kills either
# side at a random moment (seeded, the seed printed).  The harness then
# checks that rmmod succeeds.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

# At least 16 MiB: far more than the socket buffers, so that the master
# is still sending when its slave dies.
size=$(bulk 67108864 16777216)
gen big "$size" 11

# The slave's temporary output exists (it makes it after the headers),
# named or unnamed (out_temp).
temp_file_made() {
	[ -n "$(out_temp "$spid" out)" ]
}

for victim in master slave; do
	for m in fcntl mmap; do
		name="kill -9 $victim ($m)"
		# Small buffers: many round trips, so there is a middle to hit.
		n=$(klog_mark)
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
			# Once the slave has made its temporary file, the
			# stream's and the file's headers are through; right
			# after the accept the master may not have sent them
			# yet (seen once in CI).  Then a stopped slave cannot
			# drain the stream: the master is mid-transfer when it
			# dies.
			poll_until 60 temp_file_made
			made=$?
			kill -STOP $spid
			if [ $made -eq 0 ]; then
				pass "$name: the slave made its file"
			else
				fail "$name: the slave made its file" "none after 60 s: $(cat slave.log)"
			fi
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
			"closed the connection in the middle of out|receiving out \(after [0-9]+ of $size bytes\) \(the master is gone\)" \
			cat slave.log
		[ $victim = slave ] && check_output "$name: master says why" \
			"sending big \(after [0-9]+ of $size bytes\) \(the slave is gone\)" \
			cat master.log
		rm -f out .out.*
	done
done

# Random moments: after the connection, wait 0..1.5 s, kill -9 one side.
# The other side ends with a message (or, if the transfer won the race,
# everything is in place and identical); out is never incomplete.  Only
# a hidden .out.syncdev-* of a killed slave may remain.
seed=${SYNCDEV_SEED:-$(date +%s)}
echo "# kill loop seed $seed (SYNCDEV_SEED=$seed repeats it)"
RANDOM=$seed
bad=0 trials=8
for t in $(seq $trials); do
	victim=master; [ $((RANDOM % 2)) = 1 ] && victim=slave
	mm=fcntl; [ $((RANDOM % 2)) = 1 ] && mm=mmap
	sm=fcntl; [ $((RANDOM % 2)) = 1 ] && sm=mmap
	delay=$((RANDOM % 1500))
	n=$(klog_mark)
	master 1 big $mm -b 64K >master.log 2>&1 &
	mpid=$!
	slave 1 out $sm 127.0.0.1 -b 64K -w $WAIT_MS >slave.log 2>&1 &
	spid=$!
	wait_connected "$n"
	usleep $((delay * 1000))
	if [ $victim = master ]; then
		kill -9 $mpid; wait $mpid; wait_gone $spid; rc=$?; log=slave.log
	else
		kill -9 $spid; wait $spid; wait_gone $mpid; rc=$?; log=master.log
	fi
	what="trial $t: kill -9 $victim after ${delay} ms ($mm -> $sm)"
	echo "# $what: the other side exits $rc$([ -e out ] && echo ', out complete')"
	if [ -e out ] && ! cmp -s big out; then
		echo "# $what: out exists and differs"; bad=$((bad + 1))
	elif [ $rc = 255 ]; then
		echo "# $what: the other side hung"; bad=$((bad + 1))
	elif [ $rc = 0 ] && [ ! -e out ]; then
		echo "# $what: the other side exited 0: $(cat $log)"; bad=$((bad + 1))
	elif [ $rc != 0 ] && [ ! -s $log ]; then
		echo "# $what: exit $rc without a message"; bad=$((bad + 1))
	fi
	rm -f out .out.*
done
check_equal "kill -9 at random moments ($trials trials): clean failures, no incomplete output" "$bad failed" "0 failed"
finish
