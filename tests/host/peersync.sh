#!/bin/sh
# peersync, the two-VM harness's barrier, on loopback.
. tests/lib.sh
ps=build/tests/tools/peersync
# Other test runs may share this machine's loopback: a port of our own,
# below the ephemeral range (32768-60999), where an outgoing connection
# can hold any port and make bind() fail (EADDRINUSE); each host script
# that listens has its own 4000 ports.
port=$((20000 + $$ % 4000))

# both TAG_LISTEN TAG_CONNECT: run both sides; prints "listen_rc connect_rc".
both() {
	$ps --port $port --timeout 10 --listen "$1" >/dev/null 2>&1 &
	pid=$!
	$ps --port $port --timeout 10 "$2" 127.0.0.1 >/dev/null 2>&1
	c=$?
	wait $pid
	echo "$? $c"
}

check_output "peersync --help" '^usage: peersync' $ps --help
check_exit "peersync without a tag is a usage error" 2 $ps --listen
check_exit "peersync with a bad address is a usage error" 2 $ps --timeout 1 t 127.0.0.300
check_equal "peersync: same tag meets (exit codes)" "$(both "start a" "start a")" "0 0"
check_equal "peersync: different tags fail on both sides (exit codes)" "$(both "end a" "start b")" "3 3"
# The connecting side waits for a listener that starts late.
( sleep 1; $ps --port $port --timeout 10 --listen late >/dev/null 2>&1 ) &
check_exit "peersync: connecting side waits for a late listener" 0 $ps --port $port --timeout 10 late 127.0.0.1
wait
check_exit "peersync: no listener gives up after the timeout" 1 $ps --port $port --timeout 1 x 127.0.0.1
check_exit "peersync: no connection gives up after the timeout" 1 $ps --port $port --timeout 1 --listen x
finish
