#!/bin/sh
# osbench fileaccess --syncdev: the slave guest reads a file that the
# master guest serves through syncdev, beside its local directory.  Both
# guests generate the same file with gendata, so the slave can check the
# bytes it read (their XOR) against its own copy and the master the XOR
# its server announces; the table must have local and syncdev rows,
# positive sequential-read figures and empty cells for the operations a
# stream does not have.  No timing is asserted.
# vm-timeout: 300
# vm-cost: 47
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

SIZE=262144
# --smoke --reps 3 --max-chunk 4K: chunks 64 B, 256 B, 1 KiB and 4 KiB,
# each 1 warm-up + 3 sample connections (1 sample under a debug kernel:
# bench_reps, tests/lib-xfer.sh).
reps=$(bench_reps 3)
samples=${reps#--reps }
ARGS="--smoke $reps --max-chunk 4K"
CONNS=$((4 * (1 + samples)))
meet() { peer_meet 2392 "$1"; }

gendata $SIZE 4 >served
want=$(fast served 2>/dev/null | sed -n 's/^XOR value: //p')
check_output "fast gives the file's XOR" "^[0-9a-f]{8}$" echo "$want"

master() {
	# 1. A fixed number of connections: done when the client is.
	osbench fileaccess --syncdev-serve served --count $CONNS 2>serve.err &
	pid=$!
	meet fileaccess-csv-done
	if kill -0 $pid 2>/dev/null; then
		fail "serve --count $CONNS ends with the client" "still running"
		kill -TERM $pid
	fi
	wait $pid
	check_equal "serve --count $CONNS exits 0" "$?" 0
	check_output "server announces the file's XOR" \
		"serving served: $SIZE bytes, XOR value $want, on /dev/master_device" \
		cat serve.err
	check_output "server served $CONNS connections" \
		"served $CONNS connections$" cat serve.err

	# 2. Until SIGTERM, after the slave's second run.
	osbench fileaccess --syncdev-serve served 2>serve2.err &
	pid=$!
	meet fileaccess-json-done
	kill -TERM $pid
	wait $pid
	check_equal "serve stops on SIGTERM with status 0" "$?" 0
	check_output "server says why it stopped" "stopped by Terminated" \
		cat serve2.err
	check_output "server served $CONNS connections before SIGTERM" \
		"served $CONNS connections$" cat serve2.err
}

# rows_where AWK_CONDITION: data rows of fa.csv that satisfy it.
rows_where() {
	grep -v '^#' fa.csv | sed 1d | awk -F, "$1" | wc -l
}

slave() {
	where=$SYNCDEV_PEER:2325
	# shellcheck disable=SC2086
	osbench fileaccess $ARGS --csv --syncdev "$SYNCDEV_PEER" . \
		>fa.csv 2>fa.err
	check_equal "fileaccess --syncdev exits 0" "$?" 0
	[ -s fa.err ] && sed 's/^/    /' fa.err
	check_equal "csv header" "$(grep -v '^#' fa.csv | head -n 1)" \
		"dir,fs,op,chunk_bytes,n,mean,median,stddev,min,max,median_lo,median_hi,unit"
	check_equal "every row has 13 fields" \
		"$(rows_where 'NF != 13')" 0
	check_equal "12 local rows on tmpfs" \
		"$(rows_where '$1 == "." && $2 == "tmpfs"')" 12
	check_equal "12 syncdev rows" \
		"$(rows_where "\$1 == \"$where\" && \$2 == \"syncdev\"")" 12
	# A finite positive number in every summary column (n, mean,
	# median, min, max, and the median's interval inside min..max).
	pos='($5 + 0 > 0 && $6 + 0 > 0 && $7 + 0 > 0 && $9 + 0 > 0 && $10 + 0 > 0 &&
	      $11 + 0 >= $9 + 0 && $12 + 0 <= $10 + 0 &&
	      $7 ~ /^[0-9.e+-]+$/ && $7 !~ /inf|nan/)'
	check_equal "local figures positive" \
		"$(rows_where "\$1 == \".\" && $pos")" 12
	check_equal "syncdev seq-read figures positive" \
		"$(rows_where "\$2 == \"syncdev\" && \$3 == \"seq-read\" && $pos")" 4
	check_equal "syncdev seq-read per chunk 64 256 1024 4096" \
		"$(grep ',syncdev,seq-read,' fa.csv | cut -d, -f4 | tr '\n' ' ')" \
		"64 256 1024 4096 "
	check_equal "syncdev sync-write and rand-read cells empty" \
		"$(rows_where '$2 == "syncdev" && ($3 == "sync-write" || $3 == "rand-read") &&
		   $5$6$7$8$9$10$11$12 == "" && $13 == "MiB/s"')" 8
	check_output "the bytes read through syncdev are the file's" \
		"^# stream check: $SIZE bytes per connection, XOR value $want on every checked connection$" \
		cat fa.err
	check_output "the client states its connection count" \
		"^# syncdev: .*; $CONNS connections$" cat fa.err
	check_output "a note says why the others are empty" \
		"^# syncdev n/a: .*one-way stream" cat fa.err
	meet fileaccess-csv-done

	# shellcheck disable=SC2086
	osbench fileaccess $ARGS --json --syncdev "$SYNCDEV_PEER" . \
		>fa.json 2>fa.err
	check_equal "fileaccess --syncdev --json exits 0" "$?" 0
	check_equal "json: rand-read through syncdev is null" \
		"$(grep -o '"fs":"syncdev","op":"rand-read","chunk_bytes":[0-9]*,"n":null,"mean":null,"median":null' fa.json | wc -l)" 4
	check_equal "json: seq-read through syncdev has numbers" \
		"$(grep -o '"fs":"syncdev","op":"seq-read","chunk_bytes":[0-9]*,"n":'"$samples"',"mean":[0-9.e+-]*,"median":[0-9.e+-]*' fa.json | wc -l)" 4
	meet fileaccess-json-done
}

case $SYNCDEV_ROLE in
master) master ;;
slave) slave ;;
*) fail "role" "SYNCDEV_ROLE is '$SYNCDEV_ROLE'" ;;
esac
finish
