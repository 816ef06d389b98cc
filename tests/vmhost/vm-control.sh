#!/bin/sh
# The grader's control channel (scripts/vm/vm-run --control, build/gradeclass
# watch) against a guest that lies.  Two guest boots of a test command, no
# student.  (a) The guest prints control-looking lines on its console and
# into the kernel log, a case name with "../", a console flood, and sends
# the channel malformed, out-of-range and out-of-order lines and a flood;
# a program that is not root in the guest cannot open the port, and a
# host process that is not the boot's QEMU cannot connect: the host's
# .control holds exactly the harness's real events, and the case the host
# names is from its own list.  (b) A guest that begins case 1 and then
# only prints progress (and repeats events the watcher refuses) is stopped
# at the per-case limit: fake progress cannot extend a boot.  (c) Two
# guests' relay, with no guest booted (two stand-ins for QEMU, of the boot
# command, on the sockets): each gets exactly the other's accepted ready,
# listening, status, end and done, never a lie, a begin or a run; a guest
# whose port closes before its "done" is "done" to the other; a guest gets
# nothing before its own first event (its harness opens the port first).
# As root, QEMU runs as nobody, as the grader runs it; as an ordinary
# user, as that user.
. tests/lib.sh

tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
qu=""
if [ "$(id -u)" = 0 ]; then
	export SYNCDEV_QEMU_USER=nobody
	qu="--qemu-user $(id -u nobody):$(id -g nobody)"
fi

# watch STAGE FILES STALL BOOT GUEST-COMMAND: one boot of vm-run under the
# watcher (sockets in STAGE/ctl), once STAGE/go exists; its exit status
# in STAGE/rc.
watch() {
	mkdir -p "$1"
	mkdir -m 700 "$1/ctl"
	# shellcheck disable=SC2086 # $qu: two words or none
	build/gradeclass watch --stage "$1" --vms 1vm --control-dir "$1/ctl" --guest 1vm \
		--files "$2" --stall "$3" --boot "$4" $qu -- sh -c '
		while [ ! -f "$1/go" ]; do sleep 0.1; done
		shift
		exec "$@"' - "$1" \
		scripts/vm/vm-run --timeout 300 --control "$1/ctl/1vm.sock" --log "$1/1vm.log" \
		-- "$5" >"$1/out" 2>&1
	echo $? >"$1/rc"
}

# events STAGE: the accepted events of STAGE/1vm.control without offsets.
events() { awk '$1 != "ignored" { NF--; print }' "$1/1vm.control" | paste -sd '|'; }

# intrude STAGE: a host process of the caller's (not the boot's QEMU)
# that connects to the control socket before QEMU does and sends events;
# then the boot goes on (STAGE/go).
intrude() {
	for _i in $(seq 300); do
		[ -S "$1/ctl/1vm.sock" ] && break
		sleep 0.1
	done
	build/tests/tools/ctlpeer "$1/ctl/1vm.sock" 'begin 1\nbegin 2\ndone\n' >"$1/intruder" 2>&1
	: >"$1/go"
}

# (a) Lies on the console, in the kernel log and on the channel.
c='$SYNCDEV_CONTROL'
watch "$tmp/a" 2,2 60 240 "
asuser 65534 65534 sh -c 'echo begin 1 >$c' 2>/dev/null ||
	echo 'syncdev-test: the control port refused nobody'
echo 'begin 1'; echo 'run 1 2'; echo 'done'
echo 'syncdev-vm: test grade/1vm/../../evil'
echo 'begin 2' >/dev/kmsg; echo '<1>end 1' >/dev/kmsg
printf 'begin 1\n' >$c
printf 'run 1 2\n' >$c
printf 'begin 9\nbegin ../2\nrun 1 2\nend 2\nbegin 01\n' >$c
printf 'end 1\nbegin 2\ndone\n' >$c
printf 'begin 3\n' >$c
head -c 20000 /dev/zero | tr '\\0' b >$c
head -c 200000 /dev/zero | tr '\\0' x | fold -w 100
echo; echo 'syncdev-test: flood sent'" &
intrude "$tmp/a" &
wait
check_equal "control: the guest command ran to its end" "$(cat "$tmp/a/rc")" 0
check_output "control: the fakes reached the console (the attack ran)" \
	'^syncdev-vm: test grade/1vm/\.\./\.\./evil$' cat "$tmp/a/1vm.log"
check_output "control: the flood reached the console" '^syncdev-test: flood sent$' cat "$tmp/a/1vm.log"
check_output "control: a program that is not root in the guest cannot open the port" \
	'^syncdev-test: the control port refused nobody$' cat "$tmp/a/1vm.log"
check_equal "control: .control holds the harness's events, nothing else" "$(events "$tmp/a")" \
	"begin 1|run 1 2|end 1|begin 2|done"
n=$(sed -n 's/^ignored \([0-9][0-9]*\)$/\1/p' "$tmp/a/1vm.control")
if [ "${n:-0}" -ge 7 ] && [ "$(tail -n 1 "$tmp/a/1vm.control")" = "ignored $n" ]; then
	pass "control: the refused lines and the flood are counted, last ($n)"
else
	fail "control: the refused lines and the flood are counted, last" "$(tail -n 2 "$tmp/a/1vm.control" | paste -sd '|')"
fi
size=$(wc -c <"$tmp/a/1vm.log")
if awk -v max="$size" '$1 != "ignored" { if ($NF < last || $NF > max) bad = 1; last = $NF }
	END { exit bad }' "$tmp/a/1vm.control"; then
	pass "control: offsets grow and stay within the console log"
else
	fail "control: offsets grow and stay within the console log" "$(paste -sd '|' "$tmp/a/1vm.control") (log $size bytes)"
fi
check_equal "control: the case the host names comes from its own list" \
	"$(bash -c '. scripts/grade/grade-boot.sh; data="small large"; methods=fcntl-mmap;
		boot_where "$1" 1vm' - "$tmp/a")" large.fcntl-mmap
check_output "control: the intruder reached the socket (the attack ran)" '^ctlpeer: connected$' \
	cat "$tmp/a/intruder"
check_output "control: a host process that is not the boot's QEMU is refused" \
	'refused a connection that is not this boot' cat "$tmp/a/out"

# (b) Fake progress: case 1 begins, then only lies for 100 s.
mkdir -p "$tmp/b" && : >"$tmp/b/go"
watch "$tmp/b" 1,1 6 240 "
printf 'begin 1\n' >$c
i=0
while [ \$i -lt 100 ]; do
	echo 'begin 2' >/dev/kmsg
	echo \"syncdev-vm: test grade/1vm/x \$i\"
	printf 'run 1 2\nbegin 1\nend 2\n' >$c
	sleep 1
	i=\$((i + 1))
done
printf 'begin 2\ndone\n' >$c"
check_equal "stall: the boot is stopped (TERM), not run to its end" "$(cat "$tmp/b/rc")" 143
check_equal "stall: stalled.1vm says which case hung and for how long" \
	"$(cat "$tmp/b/stalled.1vm" 2>&1)" "hung: case 1 of 2 made no progress for 6 s"
check_equal "stall: .control holds the one real event" "$(events "$tmp/b")" "begin 1"
check_output "stall: the guest printed fake progress (the attack ran)" \
	'^syncdev-vm: test grade/1vm/x 1$' cat "$tmp/b/1vm.log"

# pair STAGE CMD: CMD (sh, $m and $s the two guests' sockets) as the boot
# of a two-guest watcher with cases of 1 and 2 files.
pair() {
	mkdir -p "$1"
	mkdir -m 700 "$1/ctl"
	build/gradeclass watch --stage "$1" --vms 2vm --control-dir "$1/ctl" --guest 2vm-master \
		--guest 2vm-slave --files 1,2 --stall 60 --boot 60 -- \
		env m="$1/ctl/2vm-master.sock" s="$1/ctl/2vm-slave.sock" sh -c "$2" >"$1/out" 2>&1
}

# got FILE: the lines a stand-in received, joined by '|'.
got() { sed -n 's/^ctlpeer: received //p' "$1" | paste -sd '|'; }

# (c) The relay: the master's guest lies in between its real events.
p=build/tests/tools/ctlpeer
pair "$tmp/c" "$p \"\$m\" 'begin 1\\nstatus 1 1 ok\\nready 1\\nready 1\\nlistening 1 1\\nstatus 1 1 ok\\n\
status 1 1 failed\\nend 1\\nbegin 2\\nready 2\\nstatus 2 1 ok\\nrun 2 2\\nlistening 2 2\\nlistening 2 1\\n\
status 2 2 failed\\nend 2\\ndone\\nstatus 2 2 ok\\n' >$tmp/c/m.peer &
$p \"\$s\" 'begin 1\\nready 1\\nlistening 1 1 x\\nstatus 1 1 ok\\nend 1\\ndone\\n' >$tmp/c/s.peer
wait"
check_equal "relay: the slave's guest gets the master's events, nothing else" "$(got "$tmp/c/s.peer")" \
	"ready 1|listening 1 1|status 1 1 ok|end 1|ready 2|status 2 1 ok|listening 2 2|status 2 2 failed|end 2|done"
check_equal "relay: the master's guest gets the slave's events, nothing else" "$(got "$tmp/c/m.peer")" \
	"ready 1|status 1 1 ok|end 1|done"
check_equal "relay: .control keeps begin, run, end and done" \
	"$(awk '{ NF--; print }' "$tmp/c/2vm-master.control" | paste -sd '|')" \
	"begin 1|end 1|begin 2|run 2 2|end 2|done|ignored"
pair "$tmp/d" "$p \"\$s\" 'begin 1\\nready 1\\n' >$tmp/d/s.peer; $p \"\$m\" 'begin 1\\n' >$tmp/d/m.peer"
check_equal "relay: a guest whose port closed is done to the other" "$(got "$tmp/d/m.peer")" \
	"ready 1|done"
pair "$tmp/e" "$p \"\$s\" 'begin 1\\nready 1\\n' >$tmp/e/s.peer & sleep 1; $p \"\$m\" '' >$tmp/e/m.peer; wait"
check_equal "relay: a guest that has sent no event yet (its port may be closed) gets nothing" \
	"$(got "$tmp/e/m.peer")" ""
check_output "relay: that guest was connected (the test ran)" '^ctlpeer: sent 0 bytes$' cat "$tmp/e/m.peer"
finish
