# shellcheck shell=sh
# vm-timeout: 400
# vm-cost: 100
# What each side's exit status means: the
# master exits 0 only when the slave confirmed every file, else 1 with the
# slave's reason: file counts that differ either way, a full disk on the
# slave (fcntl and mmap; for mmap also the space taken by another
# process mid-transfer), a slave killed after the master's last byte.
# The slave replaces nothing but regular files, refuses the same output
# twice; the master refuses a FIFO at once and survives an input that
# shrinks under mmap.  Needs the kernel's two-way stream.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

gen a 1000 1
gen b 2000 2
gen c 3000 3
gen big4m 4194304 4

# pair MASTER_ARGS -- SLAVE_ARGS: run both (slave to 127.0.0.1); $mrc
# and $src are their exit codes, master.log and slave.log their words.
pair() {
	margs=""
	while [ "$1" != -- ]; do margs="$margs $1"; shift; done
	shift
	# shellcheck disable=SC2086
	master $margs >master.log 2>&1 &
	mpid=$!
	# shellcheck disable=SC2086
	slave "$@" 127.0.0.1 -w $WAIT_MS >slave.log 2>&1 &
	wait_gone $! 120
	src=$?
	wait_gone $mpid 120
	mrc=$?
}

# The master does not exit 0 when the slave failed.
pair 3 a b c fcntl -- 2 x y fcntl
check_equal "master sends 3, slave expects 2: slave exit 1" "$src" 1
check_equal "master sends 3, slave expects 2: master exit 1" "$mrc" 1
check_output "master sends 3, slave expects 2: master prints the slave's reason" \
	"master: the slave failed: the master sends 3 files, the slave expects 2" cat master.log
no_output "master sends 3, slave expects 2" x
pair 2 a b mmap -- 3 x y z mmap
check_equal "master sends 2, slave expects 3: slave exit 1" "$src" 1
check_equal "master sends 2, slave expects 3: master exit 1" "$mrc" 1
check_output "master sends 2, slave expects 3: master prints the slave's reason" \
	"the slave failed: the master sends 2 files, the slave expects 3" cat master.log

mkdir small
mount -t tmpfs -o size=1m tmpfs small
for sm in fcntl mmap; do
	what="no space on the slave ($sm)"
	pair 2 a big4m fcntl -- 2 small/x small/out $sm
	check_equal "$what: slave exit 1" "$src" 1
	check_equal "$what: master exit 1" "$mrc" 1
	check_output "$what: slave says why" "small/out.*No space left on device" cat slave.log
	check_output "$what: master names the file and the slave's reason" \
		"the slave failed with file 2 of 2 \(big4m\): .*small/out.*No space left on device \[1 in place there\]" \
		cat master.log
	no_output "$what" small/out
	check_same "$what: file 1 is in place" a small/x
	rm -f small/x
done
umount small

# The space taken by another process after the slave's room check.  An
# mmap slave on tmpfs fills its pages with UFFDIO_COPY, which reserves
# nothing, so the check can pass and a later page fail (ENOMEM on Linux
# before 6.6, which the slave reports as the full disk it is).  Without
# userfaultfd (the debug kernel has no CONFIG_USERFAULTFD, which is when
# /proc/sys/vm/unprivileged_userfaultfd is missing) the slave allocates
# the whole file first, and the space taken after that cannot hurt it.
# The master is stopped once the slave has filled a page (or allocated
# the file), the tmpfs is filled up, and the master continued.
what="space taken during an mmap receive"
size=33554432
if [ -e /proc/sys/vm/unprivileged_userfaultfd ]; then
	filling=yes want=1
else
	filling=no want=$((size / 512))
	echo "# $what: no userfaultfd in this kernel, the slave allocates"
fi
gen big32m $size 5
mount -t tmpfs -o size=40m tmpfs small
master 1 big32m mmap >master.log 2>&1 &
mpid=$!
slave 1 small/out mmap 127.0.0.1 -w $WAIT_MS >slave.log 2>&1 &
spid=$!
# Blocks of the temporary file, not the file alone: the slave makes the
# file and sizes it before its room check, and fills or allocates after.
# The transfer takes a fraction of a second: polled without sleeping.
slave_has_blocks() {
	set -- "$(out_temp "$spid" small/out)"
	[ -n "$1" ] && [ "$(stat -L -c %b "$1")" -ge "$want" ]
}
ready=no
poll_until 120 slave_has_blocks && ready=yes
kill -STOP $mpid
check_equal "$what: the slave filled a page or allocated the file" "$ready" yes
head -c 64m /dev/zero >small/hog 2>/dev/null
check_equal "$what: nothing left on the tmpfs" "$(stat -f -c %a small)" 0
kill -CONT $mpid
wait_gone $spid 120
src=$?
wait_gone $mpid 120
mrc=$?
if [ $filling = yes ]; then
	check_equal "$what: slave exit 1" "$src" 1
	check_equal "$what: master exit 1" "$mrc" 1
	check_output "$what: slave says why" \
		"writing small/out \(after [0-9]+ of $size bytes\): No space left on device" \
		cat slave.log
	check_output "$what: master names the file and the slave's reason" \
		"the slave failed with file 1 of 1 \(big32m\): .*small/out.*No space left on device" \
		cat master.log
	no_output "$what" small/out
else
	check_equal "$what, allocated first: slave exit 0" "$src" 0
	check_equal "$what, allocated first: master exit 0" "$mrc" 0
	check_same "$what, allocated first: the copy" big32m small/out
	rm -f small/out
fi
rm -f small/hog big32m
umount small

# Two cases need a slave that is connected but stopped before its master
# starts: it waits in the backlog of a listener that lingers after the
# last master closed (listen_linger_ms).
echo 60000 >/sys/module/syncdev/parameters/listen_linger_ms
transfer "a transfer that leaves the listener lingering" fcntl fcntl a

# stopped_slave ARGS...: start a slave (to 127.0.0.1) that connects into
# the backlog and waits in read(), then stop it; its pid in $spid.
stopped_slave() {
	slave "$@" 127.0.0.1 >slave.log 2>&1 &
	spid=$!
	if wait_syscall $spid 0; then
		kill -STOP $spid
		return 0
	fi
	kill -9 $spid
	wait $spid
	return 1
}

# The slave killed after the master's last byte left it: the master sent
# everything into the buffers and waits for the answer, then the slave
# dies.
if stopped_slave 1 out fcntl; then
	master 1 b mmap >master.log 2>&1 &
	mpid=$!
	check "the master sent everything and waits for the answer" wait_syscall $mpid 0
	kill -9 $spid
	wait $spid
	wait_gone $mpid 60
	check_equal "slave killed after the last byte: master exit 1" "$?" 1
	check_output "slave killed after the last byte: master says so" \
		"the slave (is gone before confirming the transfer|closed the connection without confirming)" \
		cat master.log
else
	fail "slave killed after the last byte" "the slave never waited in read(): $(cat slave.log)"
fi
no_output "slave killed after the last byte"

# truncated_during METHOD SYSCALL WHAT: the master, in METHOD mode, blocked
# in the system call SYSCALL (the slave is stopped) mid-file when its
# input is cut to nothing: a message, not SIGBUS, and both sides exit 1.
truncated_during() {
	gen shrink 16777216 7
	if stopped_slave 1 out fcntl -b 64K; then
		master 1 shrink "$1" -b 64K >master.log 2>&1 &
		mpid=$!
		check "the master is blocked in $3" wait_syscall $mpid "$2"
		: >shrink
		kill -CONT $spid
		wait_gone $mpid 60
		check_equal "input truncated during $3: master exit 1" "$?" 1
		check_output "input truncated during $3: master says so" \
			"input file shrink shrank while being sent" cat master.log
		wait_gone $spid 60
		check_equal "input truncated during $3: slave exit 1" "$?" 1
	else
		fail "input truncated during $3" "the slave never waited in read(): $(cat slave.log)"
	fi
	no_output "input truncated during $3"
}
# mmap mode blocks in SEND (ioctl, 16); fcntl mode in sendfile() (40)
# into the device.
truncated_during mmap 16 "an mmap send"
truncated_during fcntl 40 "a sendfile()"

# The slave writes regular files only.
master 1 a fcntl >master.log 2>&1 &
mpid=$!
check_exit "slave 1 /dev/null: refused, exit 1" 1 slave 1 /dev/null fcntl 127.0.0.1 -w 5000
check "/dev/null is still a character device" test -c /dev/null
mkfifo fifo
check_exit "slave output FIFO: refused, exit 1" 1 slave 1 fifo mmap 127.0.0.1
check "the FIFO is still a FIFO" test -p fifo
cp b target
ln -s target link
check_exit "slave output link to a file: followed" 0 slave 1 link fcntl 127.0.0.1 -w 5000
wait_gone $mpid 60
check_equal "master to a slave writing through a link: exit 0" "$?" 0
check "the link is still a link" test -L link
check_same "the file behind the link is the copy" a target

# The same output twice is a usage error.
check_exit "slave 2 o o: exit 2" 2 slave 2 o o fcntl 127.0.0.1
check_exit "slave 2 o ./o: exit 2" 2 slave 2 o ./o fcntl 127.0.0.1

# A FIFO input is refused before anything blocks.
check_exit "master 1 fifo: refused at once, exit 1" 1 timeout 30 master 1 fifo fcntl
check_exit "tcpcopy send fifo: refused at once, exit 1" 1 timeout 30 tcpcopy send fifo

finish
