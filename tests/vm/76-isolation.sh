# shellcheck shell=sh
# vm-timeout: 240
# vm-cost: 72
# What another party on the network or the machine can do to the device:
# a process in its own network namespace reaches only that namespace's
# addresses (a master listening on the host's loopback is out of reach);
# a flood of connections from a stranger logs a bounded number of lines;
# O_NONBLOCK never waits behind another thread's call, and DISCONNECT
# from another thread ends a blocked read.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

gen in 20000 5

# A master waits on the initial namespace's port; a slave in a new
# network namespace connects to 127.0.0.1: that namespace's loopback is
# down (unreachable), and once up, nothing listens there (refused).
master 1 in fcntl >master.log 2>&1 &
mpid=$!
n0=$(klog_mark)
sleep 1
unshare -n slave 1 out fcntl 127.0.0.1 >ns.log 2>&1
check_equal "unshare -n: CONNECT to the host's 127.0.0.1: exit 1" $? 1
check_output "unshare -n: says the network is unreachable" \
	'connect to 127\.0\.0\.1.*Network is unreachable' cat ns.log
unshare -n sh -c 'ip link set lo up && exec slave 1 out fcntl 127.0.0.1' \
	>ns.log 2>&1
check_equal "unshare -n, lo up: CONNECT to 127.0.0.1: exit 1" $? 1
check_output "unshare -n, lo up: says refused" '[Rr]efused' cat ns.log
check_equal "the master accepted no connection from the namespaces" \
	"$(klog_since "$n0" "$ACCEPTED")" 0
no_output "slave in a new namespace"
# The real slave in the master's namespace still gets the file.
check "slave in the master's namespace: exit 0" slave 1 out fcntl 127.0.0.1
wait "$mpid"
check_equal "master: exit 0" $? 0
check_same "identical" in out
rm -f out

# A master and a slave inside one new namespace: its own listener.
check "unshare -n: master and slave in one new namespace: exit 0" \
	unshare -n sh -c 'ip link set lo up &&
		{ master 1 in fcntl >ns-master.log 2>&1 & } &&
		slave 1 out fcntl 127.0.0.1 -w 10000 && wait'
check_same "identical (inside the namespace)" in out
rm -f out
wait_no_listener >/dev/null

# 200 connect/close from a stranger to a master session that accepts
# and drops each: without a limit 200 to 400 lines; at most 10 per 5 s.
n0=$(klog_mark)
tool_part relcheck flood 200
n=$(klog_since "$n0" 'syncdev: master#[0-9]+: (accepted|closed|skipped|refused) ')
[ "$n" -ge 1 ] && [ "$n" -lt 100 ] &&
	pass "a flood of 200 connections logs $n lines (fewer than 100)" ||
	fail "a connection flood is rate-limited" "$n lines for 200 connections"
wait_no_listener >/dev/null

tool_part relcheck threads

# Who may use the device: whoever may open its node (mode 0600, root's);
# what it does on the network is then what socket(2) lets that user do.
ko=$SYNCDEV_ROOT/kernel/syncdev.ko
nobody="asuser 65534 65534"
# A directory the other user can reach (the test's own may be private).
shared=$(mktemp -d /tmp/isolation.XXXXXX) && chmod 0777 "$shared"
cp in "$shared/in"
chmod 0644 "$shared/in"
check_output "device nodes are 0600 root:root" '^crw------- +[0-9]+ +0 +0 ' \
	ls -ln /dev/master_device /dev/slave_device
$nobody slave 1 "$shared/out" fcntl 127.0.0.1 >nobody.log 2>&1
check_equal "another user cannot open the slave device: exit 1" $? 1
check_output "another user: says permission denied" \
	'/dev/slave_device.*Permission denied' cat nobody.log
# Given the nodes, another user listens on a privileged port only with
# CAP_NET_BIND_SERVICE, as for a socket.
rmmod syncdev
insmod "$ko" port=1000
chmod 0666 /dev/master_device /dev/slave_device
$nobody master 1 "$shared/in" fcntl >nobody.log 2>&1
check_equal "another user given the device: master on port 1000: exit 1" $? 1
check_output "another user: port 1000 needs privilege (EACCES)" \
	'Permission denied' cat nobody.log
rmmod syncdev
insmod "$ko"
chmod 0666 /dev/master_device /dev/slave_device
$nobody master 1 "$shared/in" fcntl >nobody.log 2>&1 &
mpid=$!
# shellcheck disable=SC2086 # $nobody is a command and its arguments
check "another user given the device: slave on port 2325: exit 0" \
	$nobody slave 1 "$shared/out" fcntl 127.0.0.1 -w "$WAIT_MS"
wait "$mpid"
check_equal "another user given the device: master: exit 0" $? 0
check_same "another user's transfer: identical" "$shared/in" "$shared/out"
rm -rf "$shared"
rmmod syncdev
insmod "$ko"
finish
