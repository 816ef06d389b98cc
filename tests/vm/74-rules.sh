# shellcheck shell=sh
# vm-timeout: 300
# vm-cost: 60
# The module's rules for local users and unconfirmed peers (rulecheck),
# each against the attack it stops: an O_RDONLY opener cannot connect,
# accept, send or change the session; another user's page dump shows no
# physical address; one user's buffers cannot take the module's whole
# share; one user's ACCEPT cannot take a connection from another user's
# listener; a peer that trickles its greeting is cut at the handshake
# deadline.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

ko=$SYNCDEV_ROOT/kernel/syncdev.ko
as_nobody() { asuser 65534 65534 "$@"; }
as_other() { asuser 65533 65533 "$@"; }
LISTENING=':0915 00000000:0000 0A'

# reload [PARAM...]: the module afresh, its nodes open to every user.
reload() {
	rmmod syncdev 2>/dev/null
	insmod "$ko" "$@" || return 1
	chmod 0666 /dev/master_device /dev/slave_device
}

# wait_listening: until the master's port listens (at most 30 s).
wait_listening() {
	_i=0
	while ! grep -q "$LISTENING" /proc/net/tcp && [ $_i -lt 300 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	grep -q "$LISTENING" /proc/net/tcp
}

reload

tool_part rulecheck fmode
wait_no_listener >/dev/null

# Page dumps: root sees PFN and PTE, another user the same line with both
# zeroed (as /proc/PID/pagemap).
n0=$(klog_mark)
tool_part rulecheck dump
n1=$(klog_mark)
tool_part as_nobody rulecheck dump
n2=$(klog_mark)
root_lines=$(dmesg | sed -n "/$n0/,/$n1/p" | grep -E "$PAGE_LINE")
nobody_lines=$(dmesg | sed -n "/$n1/,/$n2/p" | grep -E "$PAGE_LINE")
check_equal "root: two page lines" "$(echo "$root_lines" | grep -c .)" 2
check_equal "root: both show a PFN and a PTE" \
	"$(echo "$root_lines" | grep -Ec 'pfn=0x[1-9a-f][0-9a-f]* .* pte=0x[1-9a-f][0-9a-f]* \(present')" 2
check_equal "another user: two page lines" "$(echo "$nobody_lines" | grep -c .)" 2
check_equal "another user: PFN and PTE zeroed, the rest there" \
	"$(echo "$nobody_lines" | grep -Ec 'pfn=0x0 refcount=[0-9]+ mapcount=[0-9]+ flags=.* pte=0x0 \(present')" 2

# A user's share of the buffers: buf_size 1 MiB, max_buffer_mb 8, so 4
# per user by default.  With max_user_buffer_mb 2: while uid 65534 holds
# its 2, uid 65533 still gets 2, and root (CAP_SYS_RESOURCE) is bounded by
# the module's 8 alone: the 6 left.
reload buf_size=1048576 max_buffer_mb=8
tool_part as_nobody rulecheck share 4
reload buf_size=1048576 max_buffer_mb=8 max_user_buffer_mb=2
: >hold.log
asuser 65534 65534 rulecheck share 2 hold >hold.log 2>&1 &
hpid=$!
_i=0
while ! grep -Eq '^(PASS|FAIL) ' hold.log && [ $_i -lt 300 ]; do
	sleep 0.1
	_i=$((_i + 1))
done
grep -E '^(PASS|FAIL) ' hold.log || fail "uid 65534's share" "no result: $(cat hold.log)"
tool_part as_other rulecheck share 2
tool_part rulecheck share 6
kill "$hpid"
wait "$hpid" 2>/dev/null
rmmod syncdev
if insmod "$ko" buf_size=2097152 max_user_buffer_mb=1 2>/dev/null; then
	fail "insmod max_user_buffer_mb less than a buffer" "loaded"
	rmmod syncdev
else
	pass "insmod max_user_buffer_mb less than a buffer: refused"
fi
check_output "says why" 'max_user_buffer_mb=1 is less than one buffer' dmesg

# The listener: root's master listens; another user's ACCEPT is refused
# rather than served from it, root's gets the slave.
reload
echo 60000 >/sys/module/syncdev/parameters/listen_linger_ms
rulecheck accept >accept.log 2>&1 &
apid=$!
wait_listening || fail "root's master listens" "port 2325 never listened"
tool_part as_nobody rulecheck busy
tool_part rulecheck connect
wait "$apid"
grep -E '^(PASS|FAIL) ' accept.log || fail "root's ACCEPT" "$(cat accept.log)"
# Lingering after root's master closed, the listener is still root's;
# once it is closed, another user listens on the port for its own master.
tool_part as_nobody rulecheck busy
reload
asuser 65534 65534 rulecheck accept >accept.log 2>&1 &
apid=$!
wait_listening || fail "another user's master listens" "port 2325 never listened"
tool_part rulecheck connect
wait "$apid"
grep -E '^(PASS|FAIL) ' accept.log || fail "another user's ACCEPT" "$(cat accept.log)"
wait_no_listener >/dev/null

# The handshake deadline, on both sides; each stranger logged.
n0=$(klog_mark)
tool_part rulecheck handshake
check_equal "each connection cut at its deadline is logged" \
	"$(klog_since "$n0" '(master|slave)#[0-9]+: no handshake from 127\.0\.0\.1:[0-9]+ in 1000 ms: connection shut down \(1 so far\)')" 2

rmmod syncdev
insmod "$ko"
finish
