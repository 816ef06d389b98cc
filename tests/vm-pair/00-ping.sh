#!/bin/sh
# The two-VM link: each guest has its address and reaches the other.
# vm-cost: 7
. "$SYNCDEV_ROOT/tests/lib.sh"

case $SYNCDEV_ROLE in
master) want=169.254.25.1 peer=169.254.25.2 ;;
slave) want=169.254.25.2 peer=169.254.25.1 ;;
*) fail "role" "SYNCDEV_ROLE is '$SYNCDEV_ROLE', not master or slave"; finish ;;
esac
check_output "eth0 has $want/24" "inet $want/24" ip addr show dev eth0
check_equal "SYNCDEV_PEER" "$SYNCDEV_PEER" "$peer"
if wait_for_peer 30; then pass "peer answers ping"; else fail "peer answers ping" "no reply from $SYNCDEV_PEER in 30 s"; fi
# TCP both ways through the link, with the barrier tool the harness uses.
if [ "$SYNCDEV_ROLE" = master ]; then
	check "tcp to the peer" peersync --port 2391 --timeout 30 --listen ping-tcp
else
	check "tcp to the peer" peersync --port 2391 --timeout 30 ping-tcp "$SYNCDEV_PEER"
fi
finish
