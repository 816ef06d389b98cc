# shellcheck shell=sh
# vm-timeout: 900
# vm-cost: 80
# Stop/continue never aborts a transfer: master and slave
# are stopped and continued over and over while they move a file, in all
# four method combinations, and the copy is byte-exact; the course's
# reproducer (the master stopped and continued while it waits in SEND for
# a slave that does not read); and a slave stopped while its CONNECT waits.  The mmap
# cases (SEND, RECV) and CONNECT need the kernel's restartable calls;
# fcntl read()/write() restart already.  With one_pass (tests/lib-xfer.sh)
# the stopped side's two methods each once (the other side on the other
# method) and one round of the reproducer.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

# Long enough to be stopped many times over (a debug kernel moves it
# slower); the master blocked in SEND needs more than the buffer and the
# socket buffers hold, whatever the kernel.
gen big "$(bulk 16777216 4194304)" 8
gen blocking 16777216 9

# jolt PID: stop and continue PID every few tens of ms until it exits.
jolt() {
	while kill -STOP "$1" 2>/dev/null; do
		usleep 30000
		kill -CONT "$1" 2>/dev/null
		usleep 60000
	done
}

# finished NAME: wait for $mpid and $spid; both exit 0 and out is big.
finished() {
	wait_gone $mpid 300
	mrc=$?
	wait_gone $spid 300
	src=$?
	if [ $mrc = 0 ] && [ $src = 0 ]; then
		check_same "$1: byte-exact" big out
	else
		fail "$1" "master exit $mrc, slave exit $src: $(cat master.log slave.log | tail -n 4)"
	fi
	rm -f out .out.*
}

for victim in master slave; do
	for mm in fcntl mmap; do
		for sm in fcntl mmap; do
			if one_pass && [ $mm = $sm ]; then
				continue
			fi
			what="stop/continue the $victim ($mm -> $sm)"
			master 1 big $mm -b 256K >master.log 2>&1 &
			mpid=$!
			slave 1 out $sm 127.0.0.1 -b 256K -w $WAIT_MS >slave.log 2>&1 &
			spid=$!
			if [ $victim = master ]; then jolt $mpid & else jolt $spid & fi
			jpid=$!
			finished "$what"
			kill $jpid 2>/dev/null
			wait $jpid 2>/dev/null
		done
	done
done

# The course's reproducer: the master waits in SEND because its slave
# does not read (a slave stopped by Ctrl-Z; here badpeer's lateread, which
# reads nothing until SIGUSR1 and then all of it, checking each CRC, so
# that the master is surely blocked whatever the speed); the master is
# stopped and continued there (Ctrl-Z, fg) five times.  The transfer must
# complete: the master exits 0 on the peer's confirmation.
late=$((60 * ${SYNCDEV_TIME_SCALE:-1}))
rounds="1 2 3"
one_pass && rounds=1
for round in $rounds; do
	what="master stopped in SEND while its slave does not read (round $round)"
	n=$(klog_mark)
	master 1 blocking mmap >master.log 2>&1 &
	mpid=$!
	badpeer slave --stall $late --wait $WAIT_MS 127.0.0.1 lateread >peer.log 2>&1 &
	ppid=$!
	if wait_klog_since "$n" "$ACCEPTED" && wait_syscall $mpid 16; then
		pass "$what: the master is blocked in SEND"
	else
		fail "$what: the master is blocked in SEND" "$(cat /proc/$mpid/syscall 2>&1)"
	fi
	for _ in 1 2 3 4 5; do
		kill -STOP $mpid
		usleep 100000
		kill -CONT $mpid
		usleep 100000
	done
	kill -USR1 $ppid
	wait_gone $mpid 300
	mrc=$?
	wait_gone $ppid 300
	prc=$?
	if [ $mrc = 0 ] && [ $prc = 0 ] && grep -q '^received 1 files$' peer.log; then
		pass "$what: the master exits 0, the data arrived with its CRC"
	else
		fail "$what" "master exit $mrc, badpeer exit $prc: $(cat master.log peer.log | tail -n 4)"
	fi
done

# CONNECT with a finite timeout, stopped and continued while it waits: it
# must not fail with EINTR.  A listener that never accepts, its backlog
# filled by two connections, leaves the SYN unanswered.
: >empty
badpeer master --port 2401 --stall 300 hold empty >/dev/null 2>&1 &
hold=$!
badpeer slave --stall 300 --wait 5000 127.0.0.1:2401 stallread >/dev/null 2>&1 &
f1=$!
badpeer slave --stall 300 --wait 5000 127.0.0.1:2401 stallread >/dev/null 2>&1 &
f2=$!
sleep 1
slave 1 out fcntl 127.0.0.1:2401 -t 8000 >slave.log 2>&1 &
spid=$!
wait_syscall $spid 16
for _ in 1 2 3 4 5; do
	kill -STOP $spid
	usleep 200000
	kill -CONT $spid
	usleep 200000
done
wait_gone $spid 60
check_equal "CONNECT stopped and continued: exit 1 (no master answers)" "$?" 1
check_output "CONNECT stopped and continued: times out, not EINTR" \
	"connect to 127.0.0.1:2401: Connection timed out" cat slave.log
kill $hold $f1 $f2 2>/dev/null
wait $hold $f1 $f2 2>/dev/null
no_output "CONNECT stopped and continued"
finish
