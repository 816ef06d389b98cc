# shellcheck shell=sh
# tcpcopy against a broken or malicious peer (tests/tools/badpeer): each
# side fails cleanly, with the right exit code and message, and the
# receiver never leaves a complete-looking file.  The answer logic is the
# one master and slave use (user/libsyncdev/ack.c); tests/vm/72-badpeer.sh
# plays the same cases against them on the device.
. tests/lib.sh

B=build
BP=$B/tests/tools/badpeer
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# A port of our own: other test runs may share the machine.  Below the
# ephemeral range, in this script's 4000 (see peersync.sh).
port=$((28000 + $$ % 4000))
$B/tests/tools/gendata 100000 3 >"$T/in"
$B/tests/tools/gendata 33554432 4 >"$T/big"

# no_output NAME: neither OUT nor a temporary file is left.
no_output() {
	set -- "$1" "$T"/.out.syncdev-*
	if [ ! -e "$T/out" ] && [ ! -e "$2" ]; then
		pass "$1: no output, no temporary file"
	else
		fail "$1: no output, no temporary file" "found: $(ls -A "$T")"
	fi
	rm -f "$T/out" "$T"/.out.syncdev-*
}

# bad_sender CASE WANT_EXIT PATTERN [RECV_OPTION...]: badpeer sends, tcpcopy
# recv must exit WANT_EXIT saying PATTERN.
bad_sender() {
	kind=$1 want=$2 pat=$3
	shift 3
	$BP master --tcpcopy --crc --stall 60 --port $port "$kind" "$T/in" \
		>"$T/peer.out" 2>&1 &
	pid=$!
	timeout 60 $B/tcpcopy recv 127.0.0.1:$port "$T/out" -w 5000 --crc "$@" \
		>"$T/recv.out" 2>&1
	rc=$?
	# badpeer prints the answer it got, then exits: give it the time to,
	# except the one that stalls.
	i=0
	while [ "$kind" != stall ] && [ $i -lt 100 ] && kill -0 $pid 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
	check_equal "tcpcopy recv vs sender '$kind': exit $want" "$rc" "$want"
	check_output "tcpcopy recv vs sender '$kind': says why" "$pat" cat "$T/recv.out"
	no_output "tcpcopy recv vs sender '$kind'"
	[ -z "${BADPEER_SHOW:-}" ] || cat "$T/recv.out"
}

# bad_receiver CASE PATTERN FILE [SEND_OPTION...]: badpeer receives,
# tcpcopy send must exit 1 saying PATTERN.
bad_receiver() {
	kind=$1 pat=$2 file=$3
	shift 3
	timeout 60 $B/tcpcopy send "$file" -p $port --crc "$@" >"$T/send.out" 2>&1 &
	pid=$!
	$BP slave --tcpcopy --crc --stall 60 --wait 5000 127.0.0.1:$port "$kind" \
		>"$T/peer.out" 2>&1 &
	ppid=$!
	wait $pid
	rc=$?
	kill $ppid 2>/dev/null
	wait $ppid 2>/dev/null
	check_equal "tcpcopy send vs receiver '$kind': exit 1" "$rc" 1
	check_output "tcpcopy send vs receiver '$kind': says why" "$pat" cat "$T/send.out"
	[ -z "${BADPEER_SHOW:-}" ] || cat "$T/send.out"
}

# The good cases first: badpeer speaks the protocol right.
$BP master --tcpcopy --crc --port $port ok "$T/in" >"$T/peer.out" 2>&1 &
pid=$!
check_exit "tcpcopy recv vs a correct badpeer: exit 0" 0 \
	timeout 60 $B/tcpcopy recv 127.0.0.1:$port "$T/out" -w 5000 --crc
wait $pid
check_same "tcpcopy recv vs a correct badpeer: identical" "$T/in" "$T/out"
check_output "tcpcopy recv answers ok" \
	"^answer: status=ok index=-1 files=1 errno=0 reason=\$" cat "$T/peer.out"
rm -f "$T/out"
timeout 60 $B/tcpcopy send "$T/in" -p $port --crc >"$T/send.out" 2>&1 &
pid=$!
$BP slave --tcpcopy --crc --wait 5000 127.0.0.1:$port ok >"$T/peer.out" 2>&1
wait $pid
check_equal "tcpcopy send vs a correct badpeer: exit 0" "$?" 0

bad_sender badcrc 3 "CRC32C mismatch"
check_output "tcpcopy recv answers the CRC mismatch" \
	"^answer: status=CRC mismatch index=0 files=0 errno=0 reason=CRC32C mismatch: received data 0x" \
	cat "$T/peer.out"
bad_sender huge 1 "no space for .*out: it has 4611686018427387904 bytes, .* has [0-9]+ bytes free: No space left on device"
bad_sender truncate 1 "the sender closed the connection in .*out \(after 50000 of 100000 bytes\)"
bad_sender reset 1 "receiving .*out \(after [0-9]+ of 100000 bytes\) \(the sender is gone\): Connection reset by peer"
bad_sender stall 1 "receiving .*out \(after 50000 of 100000 bytes\) \(nothing moved within the progress timeout: the sender stalled, or its machine or the network is down\): Connection timed out" \
	--progress-timeout 2

bad_receiver nack "the receiver failed with file 1 of 1 \(.*in\): disk full \(badpeer\) \[0 in place there\]" "$T/in"
bad_receiver wrongcount "the receiver confirmed 0 files, but 1 were sent" "$T/in"
bad_receiver garbage "malformed confirmation from the receiver: bad magic number" "$T/in"
bad_receiver truncanswer "malformed confirmation from the receiver: stream ends in the middle of a frame" "$T/in"
bad_receiver hugereason "malformed confirmation from the receiver: a field is out of range" "$T/in"
bad_receiver noanswer "the receiver closed the connection without confirming the transfer" "$T/in"
bad_receiver stall "no confirmation from the receiver after the last byte \(nothing moved within the progress timeout.*\): Connection timed out" \
	"$T/in" --progress-timeout 2
bad_receiver stallread "sending .*big \(after [0-9]+ of 33554432 bytes\) \(nothing moved within the progress timeout: the receiver stalled.*\): Connection timed out" \
	"$T/big" --progress-timeout 2
bad_receiver reset "sending .*big \(after [0-9]+ of 33554432 bytes\) \(the receiver is gone\): (Connection reset by peer|Broken pipe)" "$T/big"
# A receiver that fails early answers at once and drains the rest: the
# sender stops and prints its reason.  One that closes on the unread rest
# resets the connection; over plain TCP the answer queued before the
# reset can still be read.
bad_receiver earlynack "the receiver failed: disk full \(badpeer\)" "$T/big"
bad_receiver nackreset "the receiver failed: disk full \(badpeer\)" "$T/big"

# A key handshake dribbled a byte every 100 ms: each byte well within any
# limit per read, the whole past the handshake's one deadline of 1 s (the
# right proof, so that nothing else can refuse it).  Each side ends with
# exit 4 at the deadline, nothing written.
head -c 32 /dev/urandom >"$T/key"
chmod 600 "$T/key"
export SYNCDEV_HANDSHAKE_MS=1000
timeout 60 $B/tcpcopy send "$T/in" -p $port --key "$T/key" >"$T/send.out" 2>&1 &
pid=$!
$BP slave --tcpcopy --key "$T/key" --drip 100 --wait 5000 127.0.0.1:$port \
	slowproof >"$T/peer.out" 2>&1 &
ppid=$!
wait $pid
rc=$?
kill $ppid 2>/dev/null
wait $ppid 2>/dev/null
check_equal "tcpcopy send vs a dribbled key proof: exit 4" "$rc" 4
check_output "tcpcopy send vs a dribbled key proof: says why" \
	"key handshake with the receiver failed: no complete answer within the handshake's 1000 ms" \
	cat "$T/send.out"
$BP master --tcpcopy --key "$T/key" --drip 100 --port $port slowproof "$T/in" \
	>"$T/peer.out" 2>&1 &
pid=$!
timeout 60 $B/tcpcopy recv 127.0.0.1:$port "$T/out" -w 5000 --key "$T/key" \
	>"$T/recv.out" 2>&1
rc=$?
kill $pid 2>/dev/null
wait $pid 2>/dev/null
check_equal "tcpcopy recv vs a dribbled key hello: exit 4" "$rc" 4
check_output "tcpcopy recv vs a dribbled key hello: says why" \
	"key handshake with the master failed: no complete answer within the handshake's 1000 ms" \
	cat "$T/recv.out"
no_output "tcpcopy recv vs a dribbled key hello"
unset SYNCDEV_HANDSHAKE_MS

finish
