#!/bin/sh
# osbench net across the two guests: the master runs the server, the
# slave measures TCP round trip, connect, close and bandwidth, ICMP echo,
# and the same through syncdev (device reply to a TCP request, or the
# two-way stream), then the same over its own loopback.  Checked: exit
# codes, every row there with positive figures, the device's bytes, the
# server stopping after one client run.  No timing is asserted.
# vm-timeout: 400
# vm-cost: 55
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

# --smoke's samples per figure, 1 under a debug kernel (bench_reps).
reps=$(bench_reps -)

meet() { peer_meet 2396 "$1"; }

master() {
	osbench net --serve --port 2395 --count 1 2>serve.err &
	pid=$!
	meet net-up
	meet net-done
	if kill -0 $pid 2>/dev/null; then
		fail "the server stops after one client run" "still running"
		kill -TERM $pid
	fi
	wait $pid
	check_equal "net --serve --count 1 exits 0" "$?" 0
	check_output "the server served one run" "served 1 client run$" cat serve.err
}

# rows FILE AWK_CONDITION: data rows of a CSV table that satisfy it.
rows() {
	grep -v '^#' "$1" | sed 1d | awk -F, "$2" | wc -l
}

# check_rows FILE LINK: the rows every run has, with positive figures;
# the notes are in FILE's .err beside it (stderr with --csv).
check_rows() {
	pos='$5 + 0 > 0 && $7 + 0 > 0 && $9 + 0 > 0 && $7 !~ /inf|nan/'
	for what in "tcp,round trip" "tcp,connect" "tcp,close" "tcp,bandwidth" \
		"icmp,round trip" "syncdev,connect" "syncdev,close" "syncdev,bandwidth"; do
		t=${what%%,*} w=${what#*,}
		check_equal "$2: $t $w has positive figures" \
			"$(rows "$1" "\$1 == \"$2\" && \$2 == \"$t\" && \$3 == \"$w\" && $pos")" 1
	done
	check_equal "$2: a syncdev round-trip row" \
		"$(rows "$1" "\$2 == \"syncdev\" && (\$3 == \"round trip\" || \$3 == \"tcp request + device reply\") && $pos")" 1
	check_output "$2: the device's bytes checked" \
		"^# syncdev check: 1048576 bytes per device connection" \
		cat "${1%.csv}.err"
}

slave() {
	meet net-up
	# shellcheck disable=SC2086 # $reps: an option or none
	osbench net --smoke $reps --csv --peer "$SYNCDEV_PEER:2395" >net.csv 2>net.err
	check_equal "net --peer exits 0" "$?" 0
	[ -s net.err ] && sed 's/^/    /' net.err
	check_rows net.csv "$SYNCDEV_PEER"
	meet net-done
	# shellcheck disable=SC2086
	osbench net --smoke $reps --csv >lo.csv 2>lo.err
	check_equal "net over loopback exits 0" "$?" 0
	check_rows lo.csv loopback
	check_exit "--count without --serve is a usage error" 2 osbench net --count 1
}

case $SYNCDEV_ROLE in
master) master ;;
slave) slave ;;
*) fail "role" "SYNCDEV_ROLE is '$SYNCDEV_ROLE'" ;;
esac
finish
