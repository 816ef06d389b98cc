# shellcheck shell=sh
# vm-timeout: 600
# vm-cost: 160
# slave and master against a broken or malicious peer (tests/tools/badpeer)
# on the device: crafted headers, a bad CRC, a huge size, truncated frames,
# stalls, resets and wrong answers.  Each fails cleanly with the right
# exit code and a message, never hangs, and the slave never leaves a
# complete-looking file.  Needs the kernel's two-way stream and
# SYNCDEV_IOC_SET_TIMEOUT.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

# badpeer's own port when it plays the master (the slave device connects
# to any TCP listener).
BP_PORT=2400
gen in 100000 3
# More than the socket buffers of both ends hold (a few MiB each), so that
# a stalled reader stops the master, also under a debug kernel.
bigsize=$(bulk 33554432 16777216)
gen big "$bigsize" 4

# vs_master CASE METHOD WANT PATTERN [SLAVE_OPTION...]: badpeer plays the
# master; the slave must exit WANT saying PATTERN, and leave no output
# unless WANT is 0 (then out must be identical).
vs_master() {
	kind=$1 m=$2 want=$3 pat=$4
	shift 4
	what="slave ($m) vs master '$kind'"
	badpeer master --port $BP_PORT --stall 120 "$kind" in >peer.log 2>&1 &
	pid=$!
	slave 1 out "$m" 127.0.0.1:$BP_PORT -w $WAIT_MS "$@" >slave.log 2>&1 &
	wait_gone $! 120
	rc=$?
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
	check_equal "$what: exit $want" "$rc" "$want"
	check_output "$what: says why" "$pat" cat slave.log
	if [ "$want" = 0 ]; then
		check_same "$what: identical" in out
		rm -f out
	else
		no_output "$what"
	fi
}

# vs_slave CASE METHOD FILE PATTERN [MASTER_OPTION...]: badpeer plays the
# slave; the master must exit 1 saying PATTERN (or 0 if PATTERN is "ok").
vs_slave() {
	kind=$1 m=$2 file=$3 pat=$4
	shift 4
	what="master ($m) vs slave '$kind'"
	master 1 "$file" "$m" "$@" >master.log 2>&1 &
	pid=$!
	badpeer slave --stall 120 --wait $WAIT_MS 127.0.0.1 "$kind" >peer.log 2>&1 &
	ppid=$!
	wait_gone $pid 120
	rc=$?
	kill $ppid 2>/dev/null
	wait $ppid 2>/dev/null
	if [ "$pat" = ok ]; then
		check_equal "$what: exit 0" "$rc" 0
	else
		check_equal "$what: exit 1" "$rc" 1
		check_output "$what: says why" "$pat" cat master.log
	fi
}

for m in fcntl mmap; do
	vs_master ok $m 0 "^Transmission time: .* File size: 100000 bytes\$"
	check_output "slave ($m) answers ok" \
		"^answer: status=ok index=-1 files=1 errno=0 reason=\$" cat peer.log
	vs_master badcrc "$m" 3 "CRC mismatch in out: sent 0x[0-9a-f]{8}, received 0x"
	check_output "slave ($m) answers the CRC mismatch" \
		"^answer: status=CRC mismatch index=0 files=0 errno=0 reason=CRC mismatch in out" \
		cat peer.log
	vs_master truncate "$m" 1 \
		"the master closed the connection in the middle of out \(after 50000 of 100000 bytes\)"
	# Under load the reset can reach the slave before its CONNECT returns.
	vs_master reset "$m" 1 \
		"receiving out \(after [0-9]+ of 100000 bytes\) \(the master is gone\)|connect to [0-9.]+:[0-9]+: Connection reset by peer"
	vs_master stall "$m" 1 \
		"receiving out \(after 50000 of 100000 bytes\) \(nothing moved within the progress timeout.*\): Connection timed out" \
		--progress-timeout 2
done
vs_master badmagic fcntl 3 "corrupt stream from the master in the stream header: bad magic number"
vs_master oldversion mmap 3 "unsupported framing version"
vs_master count fcntl 1 "the master sends 2 files, the slave expects 1"
check_output "slave answers the count mismatch" \
	"^answer: status=file count mismatch index=-1 files=0 errno=0 reason=the master sends 2 files, the slave expects 1\$" \
	cat peer.log
vs_master trunchdr mmap 1 "the master closed the connection in the header of file 1 \(after 8 of 16 bytes\)"
# 2^62 bytes announced: refused before anything is allocated.
vs_master huge fcntl 1 \
	"no space for out: it has 4611686018427387904 bytes, \. has [0-9]+ bytes free: No space left on device"
vs_master huge mmap 1 \
	"no space for out: it has 4611686018427387904 bytes, \. has [0-9]+ bytes free: No space left on device"
# A master that never reads the answer (as the course's one-way
# programs): the files are in place and the slave exits 0.
vs_master deaf fcntl 0 "^Transmission time:"

for m in fcntl mmap; do
	vs_slave ok $m in ok
	vs_slave nack "$m" in "the slave failed with file 1 of 1 \(in\): disk full \(badpeer\)"
	vs_slave stallread "$m" big \
		"sending big \(after [0-9]+ of $bigsize bytes\) \(nothing moved within the progress timeout.*\): Connection timed out" \
		--progress-timeout 2
	vs_slave reset "$m" big "sending big \(after [0-9]+ of $bigsize bytes\) \(the slave is gone\)"
	# A slave that fails answers at once and drains the rest: the
	# master stops early and prints its reason.
	vs_slave earlynack "$m" big "the slave failed: disk full \(badpeer\)"
	# One that closes on the unread rest resets the connection: the
	# master sees the answer if it looks before the reset arrives;
	# after it, the module keeps the error and the answer is lost.
	vs_slave nackreset "$m" big \
		"the slave failed: disk full \(badpeer\)|sending big \(after [0-9]+ of $bigsize bytes\) \(the slave is gone\)"
done
vs_slave wrongcount fcntl in "the slave confirmed 0 files, but 1 were sent"
vs_slave garbage mmap in "malformed confirmation from the slave: bad magic number"
vs_slave truncanswer fcntl in "malformed confirmation from the slave: stream ends in the middle of a frame"
vs_slave hugereason mmap in "malformed confirmation from the slave: a field is out of range"
vs_slave noanswer fcntl in "the slave closed the connection without confirming the transfer"
vs_slave stall mmap in \
	"no confirmation from the slave after the last byte \(nothing moved within the progress timeout.*\): Connection timed out" \
	--progress-timeout 2

# Peers that never greet as a slave, first in line: a reset at once (the
# module skips it if it came before ACCEPT, the master drops it after),
# 10 s of silence, a stream header where the hello belongs.  None ends
# the master: the real slave after it gets the file.
for kind in hangup silent badhello; do
	master 1 in fcntl >master.log 2>&1 &
	mpid=$!
	badpeer slave --stall 60 --wait $WAIT_MS 127.0.0.1 $kind >peer.log 2>&1 &
	ppid=$!
	if [ $kind != hangup ]; then
		check "master vs a '$kind' peer: drops it, says why" \
			wait_log master.log 'dropped a peer that did not greet as a slave \(1 so far\): '
	else
		wait $ppid
	fi
	check "the real slave after a '$kind' peer: exit 0" \
		slave 1 out fcntl 127.0.0.1 -w $WAIT_MS
	wait_gone $mpid 60
	check_equal "master after a '$kind' peer: exit 0" $? 0
	check_same "after a '$kind' peer: identical" in out
	rm -f out
	kill $ppid 2>/dev/null
	wait $ppid 2>/dev/null
done

# A peer that greets and then never reads: the master's progress is what
# the peer acknowledged, not what fitted into the socket buffers, so the
# kernel cuts it at the progress timeout counted from the last
# acknowledgement, saying so.
mark=$(klog_mark)
vs_slave stallread fcntl big \
	"sending big \(after [0-9]+ of $bigsize bytes\) \(nothing moved within the progress timeout.*\): Connection timed out" \
	--progress-timeout 2
check_equal "master vs a greet-and-never-read peer: the kernel cut it, nothing acknowledged for 2 s" \
	"$(klog_since "$mark" 'syncdev: master#[0-9]+: nothing acknowledged for 2000 ms: connection shut down')" 1

# A silent stranger cut by the progress timeout (1 s) before the
# handshake's deadline (10 s): counted as a stranger, and both the master
# and the kernel name the progress timeout.
mark=$(klog_mark)
master 1 in fcntl --progress-timeout 1 >master.log 2>&1 &
mpid=$!
badpeer slave --stall 60 --wait $WAIT_MS 127.0.0.1 silent >peer.log 2>&1 &
ppid=$!
check "master vs a silent peer, progress timeout 1 s: names it" \
	wait_log master.log "dropped a peer that did not greet as a slave \(1 so far\): no hello within the progress timeout's 1000 ms"
check_equal "silent peer cut by the progress timeout: the kernel counts it as a stranger" \
	"$(klog_since "$mark" 'syncdev: master#[0-9]+: no handshake from 127\.0\.0\.1:[0-9]+ in 1000 ms, the progress timeout: connection shut down \(1 so far\)')" 1
kill $mpid $ppid 2>/dev/null
wait $mpid $ppid 2>/dev/null
finish
