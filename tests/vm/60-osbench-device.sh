#!/bin/sh
# vm-cost: 23
# In the VM (busybox sh, module loaded by the harness): osbench's --device
# mode reads /dev/slave_device while "osbench feed" streams the pattern
# into /dev/master_device over loopback; every XOR must be the pattern's,
# which run -w/-r on a file gives independently of the device.
. "$SYNCDEV_ROOT/tests/lib.sh"
B=$SYNCDEV_ROOT/build
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# with_feed FEED_ARGS -- CMD...: start a feed, run CMD (retrying while
# the master is not yet accepting), leave CMD's output in $T/out and the
# feed's exit status in $feed_rc.  Returns CMD's exit status.
with_feed() {
	fargs=
	while [ "$1" != "--" ]; do fargs="$fargs $1"; shift; done
	shift
	# shellcheck disable=SC2086
	$B/osbench feed $fargs 2>"$T/feed.err" &
	fpid=$!
	i=0
	while :; do
		"$@" >"$T/out" 2>&1 && rc=0 || rc=$?
		grep -q "Connection refused" "$T/out" || break
		i=$((i + 1))
		[ $i -lt 50 ] || break
		sleep 0.1 2>/dev/null || sleep 1
	done
	wait $fpid
	feed_rc=$?
	return "$rc"
}

# expect NAME FILE: the XOR line of $T/out equals that of FILE.
expect() {
	if [ "$(grep '^XOR value' "$T/out")" = "$(grep '^XOR value' "$2")" ] &&
	   grep -q '^XOR value' "$2"; then
		pass "$1"
	else
		fail "$1" "got '$(tail -n 3 "$T/out")', want '$(cat "$2")'"
	fi
}

"$B/run" "$T/p40k" -w 4K 10 >/dev/null 2>&1
"$B/run" "$T/p40k" -r 4K 10 >"$T/want40k" 2>/dev/null
"$B/run" "$T/p1m" -w 1M 1 >/dev/null 2>&1
"$B/fast" "$T/p1m" >"$T/want1m" 2>/dev/null

with_feed --count 40K -- "$B/run" --device -r 4K 10
check_exit "feed --count 40K exits 0" 0 test "$feed_rc" = 0
expect "run --device reads the fed pattern" "$T/want40k"

with_feed --count 40K -- "$B/run" --device -r 1K 50
expect "run --device past the end of the stream" "$T/want40k"
check_output "run --device says where the stream ended" \
	"end of input after 40960 bytes" cat "$T/out"

with_feed --count 1M --block 4K -- "$B/fast" --device
expect "fast --device reads the fed pattern" "$T/want1m"

with_feed -- "$B/osbench" sweep --device --min 1K --max 64K --time 0.01 \
	--reps 3 --bytes 1M --csv
sweep_rc=$?
check_exit "sweep --device exits 0" 0 test "$sweep_rc" = 0
check_output "sweep --device checks the stream" \
	"^# stream check: XOR value [0-9a-f]{8} of [0-9]+ bytes, pattern [0-9a-f]{8}: ok$" \
	cat "$T/out"
check_output "sweep --device measured every size" "^65536," cat "$T/out"
check_exit "feed stops when the slave closes" 0 test "$feed_rc" = 0

with_feed -- "$B/run2" --device --min 0.01 --max 60 64K
check_output "run2 --device finds a block count" "^Block count: [0-9]+$" cat "$T/out"
finish
