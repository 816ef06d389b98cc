# shellcheck shell=sh
# vm-cost: 11
# Every error of the device contract with its exact errno (devcheck), and
# the programs' errors that need the device: refused (also by a connect
# that TCP completed with itself), unreachable, count mismatch.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

out=$(devcheck 2>&1)
rc=$?
echo "$out" | grep -E '^(PASS|FAIL) '
if [ $rc -ne 0 ] && ! echo "$out" | grep -q '^FAIL '; then
	fail "devcheck" "exited $rc: $(echo "$out" | tail -n 3)"
fi

gen in 1000 5
# devcheck's masters are gone; their listener lingers for a moment.
check "the listener closes after the last master" wait_no_listener
check_exit "slave with no master, --wait 0: exit 1" 1 slave 1 out fcntl 127.0.0.1 --wait 0
check_output "slave with no master: says refused" \
	"connect to 127.0.0.1:2325 \(is the master running\?\): Connection refused" \
	slave 1 out fcntl 127.0.0.1 --wait 0
check_output "slave with no master: waits --wait MS by default, and says so" \
	"no master at 127.0.0.1:2325 yet: retrying for up to 1 s \(--wait MS\)" \
	slave 1 out fcntl 127.0.0.1 --wait 1000
check_exit "slave to 0.0.0.0: exit 1" 1 slave 1 out mmap 0.0.0.0 --wait 0
# TCP lets a connect to a local port nothing listens on be given that
# very port as its own and complete with itself.  With one ephemeral
# port, 40000, every connect to 127.0.0.1:40000 is such a connect: the
# slave must find no master there, and leave no TIME_WAIT that would
# keep the port from the next connect (or a master).
ports=$(cat /proc/sys/net/ipv4/ip_local_port_range)
echo "40000 40000" >/proc/sys/net/ipv4/ip_local_port_range
check_exit "slave connected to itself: refused, exit 1" 1 \
	timeout 60 slave 1 out fcntl 127.0.0.1:40000 --wait 0
check_output "slave connected to itself: says refused, the port is free again" \
	"connect to 127.0.0.1:40000 \(is the master running\?\): Connection refused" \
	timeout 60 slave 1 out fcntl 127.0.0.1:40000 --wait 0
echo "$ports" >/proc/sys/net/ipv4/ip_local_port_range
[ ! -e out ] && pass "failed slaves leave no output" ||
	fail "failed slaves leave no output" "out exists"

# N differs between the two sides: the slave says so and keeps nothing.
master 2 in in fcntl >master.log 2>&1 &
mpid=$!
slave 1 out fcntl 127.0.0.1 -w $WAIT_MS >slave.log 2>&1
src=$?
wait $mpid
[ $src -eq 1 ] && pass "slave N=1, master N=2: exit 1" ||
	fail "slave N=1, master N=2: exit 1" "exit $src: $(cat slave.log)"
check_output "slave N=1, master N=2: names both counts" \
	"the master sends 2 files, the slave expects 1" cat slave.log
[ -z "$(ls -A | grep out)" ] && pass "count mismatch leaves no output" ||
	fail "count mismatch leaves no output" "$(ls -A)"

finish
