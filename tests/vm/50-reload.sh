# shellcheck shell=sh
# vm-timeout: 300
# vm-cost: 14
# Unload and reload the module 20 times, transferring now and then; rmmod
# is refused while a device is open or mapped.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

ko=$SYNCDEV_ROOT/kernel/syncdev.ko
gen in 300000 4

# A device held open by a sleeping process: rmmod must refuse.
# shellcheck disable=SC2217 # the redirection holds the device open
sleep 1000 </dev/master_device &
holder=$!
# The background shell opens the device after fork: wait for the reference.
i=0
while [ "$(cat /sys/module/syncdev/refcnt)" -eq 0 ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
out=$(rmmod syncdev 2>&1)
rc=$?
echo "# rmmod said: $out"
[ $rc -ne 0 ] && [ -d /sys/module/syncdev ] &&
	pass "rmmod refused while a device is open" ||
	fail "rmmod refused while a device is open" "exit $rc: $out"
kill $holder
wait $holder 2>/dev/null

bad=0 moved=0
i=0
while [ $i -lt 20 ]; do
	i=$((i + 1))
	if ! rmmod syncdev; then bad=$((bad + 1)); break; fi
	if ! insmod "$ko"; then bad=$((bad + 1)); break; fi
	if [ $((i % 5)) -eq 0 ]; then
		master 1 in mmap >master.log 2>&1 &
		mpid=$!
		slave 1 out fcntl 127.0.0.1 -w $WAIT_MS >slave.log 2>&1 &&
			wait $mpid && cmp -s in out && moved=$((moved + 1))
		rm -f out
	fi
done
[ $bad -eq 0 ] && pass "20 rmmod/insmod cycles" ||
	fail "20 rmmod/insmod cycles" "cycle $i failed"
[ $moved -eq 4 ] && pass "a transfer after every 5th reload" ||
	fail "a transfer after every 5th reload" "$moved of 4 transfers ok: $(tail -n 2 master.log slave.log)"
[ -e /dev/master_device ] && [ -e /dev/slave_device ] &&
	pass "devices present after the loop" ||
	fail "devices present after the loop" "missing"
finish
