# shellcheck shell=sh
# tcpcopy, the benchmark baseline, copies files byte-exact over loopback.
. tests/lib.sh

B=build
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# A port of our own: other test runs may share the machine.
port=$((20000 + $$ % 20000))

for run in "0" "1" "4097" "3000000" "0 --crc" "1 --crc" "3000000 --crc"; do
	size=${run%% *} crc=${run#"$size"}
	$B/tests/tools/gendata $size 7 >"$T/in"
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

# --crc against a sender whose CRC32C or length is wrong (python3 plays
# the sender): exit 3 or 1, and no output file either way.
cat >"$T/sender.py" <<'PY'
import socket, struct, sys
port, kind = int(sys.argv[1]), sys.argv[2]
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", port))
s.listen(1)
c, _ = s.accept()
if kind == "bad-crc":
    c.sendall(struct.pack("<Q", 4) + b"abcd" + struct.pack("<I", 0x12345678))
else:
    c.sendall(struct.pack("<Q", 10) + b"abc")
c.close()
PY
if command -v python3 >/dev/null; then
	for case in "bad-crc 3 CRC32C mismatch" "short 1 closed the connection after 3 of 10"; do
		kind=${case%% *} rest=${case#* } want=${rest%% *} says=${rest#* }
		python3 "$T/sender.py" $port "$kind" &
		pid=$!
		out=$($B/tcpcopy recv 127.0.0.1:$port "$T/out" -w 5000 --crc 2>&1)
		rc=$?
		wait $pid
		check_equal "tcpcopy recv --crc, $kind: exit code" "$rc" "$want"
		check_output "tcpcopy recv --crc, $kind: says why" "$says" echo "$out"
		if [ -e "$T/out" ]; then fail "tcpcopy recv --crc, $kind: no output" "$T/out exists"; else pass "tcpcopy recv --crc, $kind: no output"; fi
	done
else
	echo "# no python3: tcpcopy --crc error cases not tested"
fi
rm -f "$T/sender.py"

# Nobody listening: refused at once without --wait, exit 1, no output.
check_output "tcpcopy --help lists --device" "^  -d, --device " $B/tcpcopy --help
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
if [ -z "$(ls -A "$T" | grep -v -e '^in$' -e '\.out$')" ]; then
	pass "tcpcopy refused leaves no file"
else
	fail "tcpcopy refused leaves no file" "found: $(ls -A "$T")"
fi

finish
