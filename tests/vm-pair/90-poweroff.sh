# shellcheck shell=sh
# vm-timeout: 400
# vm-cost: 25
# The master's machine dies in the middle of a transfer:
# the master guest powers itself off mid-file, the slave guest goes on.
# The slave must end within its progress timeout (5 s here) plus margins,
# with a message naming the file and the bytes that arrived, and leave no
# complete-looking file.  It powers a guest off, so it is the last test
# of tests/vm-pair (scripts/guest/run-tests).  Needs the kernel's
# SYNCDEV_IOC_SET_TIMEOUT.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

PORT=2393
TAG="the slave is stopped mid-file"
TIMEOUT_S=5

if [ "$SYNCDEV_ROLE" = master ]; then
	# No byte of it is checked: a sparse file is there at once, where the
	# pattern's 64 MiB took most of a minute under a debug kernel.
	truncate -s 67108864 big
	# A long timeout of its own: it must not give up before its machine dies.
	master 1 big fcntl -b 64K --progress-timeout 600 >master.log 2>&1 &
	if peersync --listen --port $PORT --timeout 300 "$TAG"; then
		echo "# powering the master guest off mid-transfer"
		sh "$SYNCDEV_ROOT/scripts/guest/poweroff-now"
	fi
	fail "the slave side reached the power-off point" "$(cat master.log)"
	finish
fi

# temp_size: bytes of the slave's temporary file so far (0 if none yet).
temp_size() {
	set -- "$(out_temp "$spid" out)"
	[ -n "$1" ] && stat -L -c %s "$1" && return
	echo 0
}

# At the lowest priority: on a one-CPU guest of a fast host the slave at
# full speed starved this loop, which then first looked only after the
# whole 64 MiB had arrived.
slave 1 out fcntl "$SYNCDEV_PEER" -b 64K -w 60000 \
	--progress-timeout $TIMEOUT_S >slave.log 2>&1 &
spid=$!
renice -n 19 -p $spid >/dev/null
# Stop the slave once a MiB arrived: the master is then certainly in the
# middle of the 64 MiB file, and stays there.
i=0
while [ "$(temp_size)" -lt 1048576 ] && kill -0 $spid 2>/dev/null &&
	[ $i -lt 6000 ]; do
	usleep 20000
	i=$((i + 1))
done
kill -STOP $spid
# From here on, this guest's harness must not wait for the other one.
: >"$SYNCDEV_HARNESS_DIR/peer-gone"
if ! peersync --port $PORT --timeout 300 "$TAG" "$SYNCDEV_PEER"; then
	kill -9 $spid
	fail "the master guest reached the power-off point" "$(cat slave.log)"
	finish
fi
# The master guest is gone once it no longer answers ping.
i=0
while ping -c 1 -W 1 "$SYNCDEV_PEER" >/dev/null 2>&1 && [ $i -lt 120 ]; do
	i=$((i + 1))
done
kill -CONT $spid
# The bound: the progress timeout, plus time to drain what had arrived
# and for a slow guest (the check is for a hang, not for speed).
wait_gone $spid $((TIMEOUT_S + 60))
rc=$?
check_equal "master machine powered off mid-transfer: the slave ends, exit 1" "$rc" 1
check_output "master machine powered off mid-transfer: the slave names the file and bytes" \
	"slave: receiving out \(after [0-9]+ of 67108864 bytes\) \(nothing moved within the progress timeout: the master stalled, or its machine or the network is down\): Connection timed out" \
	cat slave.log
no_output "master machine powered off mid-transfer"
finish
