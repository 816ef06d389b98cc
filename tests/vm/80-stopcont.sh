# shellcheck shell=sh
# vm-timeout: 900
# Stop/continue never aborts a transfer (issue 8, row 4): master and slave
# are stopped and continued over and over while they move a file, in all
# four method combinations, and the copy is byte-exact; the course's
# reproducer (the master stopped and continued while it waits in SEND for
# a stopped slave); and a slave stopped while its CONNECT waits.  The mmap
# cases (SEND, RECV) and CONNECT need the kernel's restartable calls
# (issue 8, kernel side); fcntl read()/write() restart already.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

gen big 16777216 8

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

# The reproducer of row 4: the slave is stopped, so the master waits in
# SEND; the master is stopped and continued there (Ctrl-Z, fg); then the
# slave goes on.  The transfer must complete.
for round in 1 2 3; do
	what="master stopped in SEND while the slave is stopped (round $round)"
	master 1 big mmap >master.log 2>&1 &
	mpid=$!
	slave 1 out mmap 127.0.0.1 -w $WAIT_MS >slave.log 2>&1 &
	spid=$!
	wait_syscall $mpid 16
	usleep 300000
	kill -STOP $spid
	usleep 300000
	for i in 1 2 3 4 5; do
		kill -STOP $mpid
		usleep 100000
		kill -CONT $mpid
		usleep 100000
	done
	kill -CONT $spid
	finished "$what"
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
for i in 1 2 3 4 5; do
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
