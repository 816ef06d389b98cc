# shellcheck shell=sh
# tcpcopy --device: the benchmark's raw device stream (osbench transfer's
# "tcpcopy --device" rows) copies files byte-exact through
# /dev/master_device and /dev/slave_device, with and without --crc.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

for s in 0 1 4097 1048576 3000001; do
	gen "in$s" "$s"
	for crc in "" --crc; do
		name="tcpcopy --device $crc, $s bytes"
		tcpcopy send "in$s" --device $crc >send.log 2>&1 &
		spid=$!
		tcpcopy recv 127.0.0.1 out --device -w $WAIT_MS $crc >recv.log 2>&1
		rc=$?
		wait $spid
		sc=$?
		if [ $rc -eq 0 ] && [ $sc -eq 0 ]; then
			check_same "$name: identical" "in$s" out
		else
			fail "$name" "send exit $sc, recv exit $rc: $(cat send.log recv.log | tail -n 4)"
		fi
		check_time_line "$name: recv prints the time line" recv.log "$s"
		rm -f out
	done
done
finish
