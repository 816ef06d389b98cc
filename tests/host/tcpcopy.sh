# shellcheck shell=sh
# tcpcopy, the benchmark baseline, copies files byte-exact over loopback.
. tests/lib.sh

B=build
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# A port of our own: other test runs may share the machine.  Below the
# ephemeral range, in this script's 4000 (see peersync.sh).
port=$((24000 + $$ % 4000))

for run in "0" "1" "4097" "3000000" "0 --crc" "1 --crc" "3000000 --crc" \
	"0 --zerocopy" "4097 --zerocopy" "3000000 --zerocopy"; do
	size=${run%% *} crc=${run#"$size"}
	"$B/tests/tools/gendata" "$size" 7 >"$T/in"
	# shellcheck disable=SC2086
	$B/tcpcopy send "$T/in" -p $port -b 64K $crc >"$T/send.out" 2>&1 &
	pid=$!
	# shellcheck disable=SC2086
	$B/tcpcopy recv 127.0.0.1:$port "$T/out" -w 5000 $crc >"$T/recv.out" 2>&1
	rc=$?
	wait $pid
	src=$?
	if [ $rc -eq 0 ] && [ $src -eq 0 ]; then
		check_same "tcpcopy $run bytes identical" "$T/in" "$T/out"
	else
		fail "tcpcopy $run bytes" "send exit $src, recv exit $rc: $(cat "$T/send.out" "$T/recv.out")"
	fi
	check_output "tcpcopy $run bytes: send prints the time line" \
		"^Transmission time: [0-9]+\.[0-9]{6} ms, File size: $size bytes$" cat "$T/send.out"
	check_output "tcpcopy $run bytes: recv prints the time line" \
		"^Transmission time: [0-9]+\.[0-9]{6} ms, File size: $size bytes$" cat "$T/recv.out"
	rm -f "$T/out"
done

# --key: the same key on both sides copies; a receiver with another key,
# or against a sender without one, fails the handshake with exit 4 and
# writes nothing.
(umask 077 && head -c 32 /dev/urandom >"$T/k1" && head -c 32 /dev/urandom >"$T/k2")
$B/tests/tools/gendata 300000 9 >"$T/in"
# keyed_pair SEND_OPTS RECV_OPTS: recv's exit status; send's in $src.
keyed_pair() {
	# shellcheck disable=SC2086
	$B/tcpcopy send "$T/in" -p $port $1 >"$T/send.out" 2>&1 &
	pid=$!
	# shellcheck disable=SC2086
	$B/tcpcopy recv 127.0.0.1:$port "$T/out" -w 5000 $2 >"$T/recv.out" 2>&1
	rc=$?
	wait $pid
	src=$?
	return $rc
}
keyed_pair "--key $T/k1 --crc" "--key $T/k1 --crc"
check_equal "tcpcopy --key, same key: recv exit 0" $? 0
check_equal "tcpcopy --key, same key: send exit 0" $src 0
check_same "tcpcopy --key: identical" "$T/in" "$T/out"
rm -f "$T/out"
keyed_pair "--key $T/k1" "--key $T/k2"
check_equal "tcpcopy --key, other key: recv exit 4" $? 4
check_equal "tcpcopy --key, other key: send exit 4" $src 4
check_output "tcpcopy --key, other key: send says the receiver does not hold the key" \
	'key handshake with the receiver failed: it does not hold the key' cat "$T/send.out"
check_exit "tcpcopy --key, other key: no output" 1 test -e "$T/out"
keyed_pair "" "--key $T/k1"
check_equal "tcpcopy recv --key vs send without: recv exit 4" $? 4
check_output "tcpcopy recv --key vs send without: says why" \
	'it did not start one' cat "$T/recv.out"
check_exit "tcpcopy recv --key vs send without: no output" 1 test -e "$T/out"
rm -f "$T/out" "$T/k1" "$T/k2"

# --zerocopy is one file over plain TCP: with --crc it is refused.
check_exit "tcpcopy --zerocopy --crc: usage error" 2 \
	$B/tcpcopy send "$T/in" -p $port --zerocopy --crc

# Damaged or stalled senders and receivers: tests/host/badpeer.sh.

# Nobody listening: refused at once without --wait, exit 1, no output.
check_output "tcpcopy --help lists --device" "^      --device\[=PATH\]\$" $B/tcpcopy --help
if [ ! -e /dev/slave_device ]; then
	check_exit "tcpcopy recv --device without the module" 1 \
		$B/tcpcopy recv 127.0.0.1 "$T/out" --device
	check_output "tcpcopy recv --device without the module: says so" \
		"/dev/slave_device.*(is the syncdev module loaded\?)" \
		$B/tcpcopy recv 127.0.0.1 "$T/out" --device
fi
check_exit "tcpcopy recv refused" 1 $B/tcpcopy recv 127.0.0.1:$port "$T/out"
check_output "tcpcopy recv refused: says so" "Connection refused" \
	$B/tcpcopy recv 127.0.0.1:$port "$T/out"
# TCP completes a connect to a local port nothing listens on with itself
# when it gives the socket that very port: in a network namespace of our
# own whose only ephemeral port is 40000, every connect to :40000 does.
# recv must take it for the refusal it is, not a sender (which hung).
# Root only (unshare -n); the VM's slave has the same test (30-errors).
self_connect() {
	unshare -n sh -c 'ip link set lo up &&
		echo "40000 40000" >/proc/sys/net/ipv4/ip_local_port_range &&
		exec timeout 60 "$@"' sh "$@"
}
if [ "$(id -u)" = 0 ] && unshare -n true 2>/dev/null && command -v ip >/dev/null; then
	check_exit "tcpcopy recv connected to itself: refused, exit 1" 1 \
		self_connect $B/tcpcopy recv 127.0.0.1:40000 "$T/out" -w 1000
	check_output "tcpcopy recv connected to itself: says refused" \
		"connect to 127.0.0.1:40000: Connection refused" \
		self_connect $B/tcpcopy recv 127.0.0.1:40000 "$T/out" -w 1000
	check_exit "peersync connected to itself: no peer, exit 1" 1 \
		self_connect build/tests/tools/peersync --port 40000 --timeout 1 x 127.0.0.1
fi
# A tmpfs mounted with size=0 has no limit and reports 0 blocks: recv
# stores a file there instead of refusing it for "0 bytes free".
# Root only (a mount namespace of its own).
unlimited_tmpfs() {
	unshare -m --propagation private sh -c 'mkdir -p "$1/t0" &&
		mount -t tmpfs -o size=0 syncdev-test "$1/t0" &&
		exec timeout 60 "$2" recv "127.0.0.1:$3" "$1/t0/out" -w 5000 &&
		cmp "$1/in" "$1/t0/out"' sh "$T" "$B/tcpcopy" "$port"
}
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
	$B/tests/tools/gendata 300000 3 >"$T/in"
	$B/tcpcopy send "$T/in" -p $port >"$T/send.out" 2>&1 &
	pid=$!
	unlimited_tmpfs >"$T/recv.out" 2>&1
	rc=$?
	wait $pid
	check_equal "tcpcopy recv onto a tmpfs with size=0: stored, identical (exit 0)" \
		"$rc $(grep -c 'bytes free' "$T/recv.out")" "0 0"
	rmdir "$T/t0"
fi
if [ -z "$(ls -A "$T" | grep -v -e '^in$' -e '\.out$')" ]; then
	pass "tcpcopy refused leaves no file"
else
	fail "tcpcopy refused leaves no file" "found: $(ls -A "$T")"
fi

# send --device (the copy through syncdev: tests/vm/62-tcpcopy-device.sh)
# on a host without the module: exit 1 at once, saying what is missing
# (recv: above).
if [ ! -e /dev/master_device ]; then
	check_exit "tcpcopy send --device without the module: exit 1" 1 \
		$B/tcpcopy send "$T/in" --device
	check_output "tcpcopy send --device without the module: says so" \
		"master_device.*module loaded" $B/tcpcopy send "$T/in" --device
fi

# --tar (several files, the baseline of osbench transfer --files): each
# file byte for byte, an empty one and one larger than the buffer
# included; a count that differs fails both sides; --crc is refused.
ins="" outs=""
for s in 0 1 1024 70000 4097; do
	"$B/tests/tools/gendata" $s $s >"$T/tin$s"
	ins="$ins $T/tin$s"
	outs="$outs $T/tout$s"
done
# shellcheck disable=SC2086
$B/tcpcopy send $ins -p $port -b 4K >"$T/send.out" 2>&1 &
pid=$!
# shellcheck disable=SC2086
$B/tcpcopy recv 127.0.0.1:$port $outs -w 5000 -b 4K >"$T/recv.out" 2>&1
check_equal "tcpcopy 5 files: recv exit 0" $? 0
wait $pid
check_equal "tcpcopy 5 files: send exit 0" $? 0
for s in 0 1 1024 70000 4097; do
	check_same "tcpcopy 5 files: the $s-byte file" "$T/tin$s" "$T/tout$s"
done
check_output "tcpcopy 5 files: recv prints the total" \
	"^Transmission time: [0-9.]+ ms, File size: 75122 bytes$" cat "$T/recv.out"
rm -f "$T"/tout*
$B/tcpcopy send "$T/tin1" --tar -p $port >"$T/send.out" 2>&1 &
pid=$!
$B/tcpcopy recv 127.0.0.1:$port "$T/tout1" "$T/tout0" -w 5000 >"$T/recv.out" 2>&1
check_equal "tcpcopy --tar, 1 sent, 2 expected: recv exit 1" $? 1
wait $pid
check_equal "tcpcopy --tar, 1 sent, 2 expected: send exit 1" $? 1
check_output "tcpcopy --tar, count mismatch: send says why" \
	"the sender sends 1 files, the receiver expects 2" cat "$T/send.out"
check_exit "tcpcopy --tar --crc: usage error" 2 $B/tcpcopy send "$T/tin1" --tar --crc

# --rename: the same files, one of them replacing an older file, through
# temporary names that are all gone at the end; the old file keeps its
# mode.  A count mismatch leaves no output and no temporary file.
# --rename on send, or without --tar, is refused.
"$B/tests/tools/gendata" 10 9 >"$T/tout1024"
chmod 600 "$T/tout1024"
# shellcheck disable=SC2086
$B/tcpcopy send $ins -p $port -b 4K >"$T/send.out" 2>&1 &
pid=$!
# shellcheck disable=SC2086
$B/tcpcopy recv 127.0.0.1:$port $outs --rename -w 5000 -b 4K >"$T/recv.out" 2>&1
check_equal "tcpcopy --rename 5 files: recv exit 0" $? 0
wait $pid
check_equal "tcpcopy --rename 5 files: send exit 0" $? 0
for s in 0 1 1024 70000 4097; do
	check_same "tcpcopy --rename: the $s-byte file" "$T/tin$s" "$T/tout$s"
done
check_equal "tcpcopy --rename: the replaced file keeps mode 600" \
	"$(stat -c %a "$T/tout1024")" 600
check_equal "tcpcopy --rename: no temporary file left" \
	"$(ls -A "$T" | grep -c syncdev-)" 0
rm -f "$T"/tout*
$B/tcpcopy send "$T/tin1" --tar -p $port >"$T/send.out" 2>&1 &
pid=$!
$B/tcpcopy recv 127.0.0.1:$port "$T/tout1" "$T/tout0" --rename -w 5000 >"$T/recv.out" 2>&1
check_equal "tcpcopy --rename, 1 sent, 2 expected: recv exit 1" $? 1
wait $pid
check_equal "tcpcopy --rename, count mismatch: no output, no temporary file" \
	"$(ls -A "$T" | grep -c -e tout -e syncdev-)" 0
check_exit "tcpcopy send --rename: usage error" 2 $B/tcpcopy send "$T/tin1" --tar --rename
check_exit "tcpcopy recv --rename without --tar: usage error" 2 \
	$B/tcpcopy recv 127.0.0.1:$port "$T/tout1" --rename

finish
