#!/bin/sh
# scripts/vm/vm-run as root with QEMU as another user (SYNCDEV_QEMU_USER,
# as the grader runs it) against a process of that user, which is what a
# guest that escaped QEMU would be.  While two boots run (one that ends by
# itself, one that is TERMed, which makes vm-run kill its QEMU), the
# attacker keeps trying to replace vm-run's qemu.rc, qemu.pid and hung
# with links to a root-owned canary and to write the PID of a root-owned
# process: the run's directory is root's, so every try fails, the canary
# is untouched and the process lives.  Two guest boots; as an ordinary
# user, QEMU runs as that user and there is no one to drop to: nothing
# runs.
. tests/lib.sh

[ "$(id -u)" = 0 ] || exit 0
tmp=$(mktemp -d)
chmod 755 "$tmp"
mkdir -m 1777 "$tmp/t"
victim=""
trap 'rm -rf "$tmp"; [ -z "$victim" ] || kill "$victim" 2>/dev/null' EXIT
echo "root's canary" >"$tmp/canary"
chmod 600 "$tmp/canary"
sleep 600 &
victim=$!
uid=$(id -u nobody) gid=$(id -g nobody)

# The attacker, as nobody: every 0.1 s, into every directory in $tmp/t,
# links and a PID (tests/tools/plant-links, copied to $tmp: nobody may
# not be able to read the clone).
cp tests/tools/plant-links "$tmp/plant-links"
chmod 755 "$tmp/plant-links"
build/tests/tools/asuser "$uid" "$gid" sh "$tmp/plant-links" "$tmp/t" "$tmp/canary" "$victim" \
	qemu.rc hung disk.img &
attacker=$!

# Boot 1 ends by itself; boot 2 is TERMed once its command runs.
TMPDIR=$tmp/t SYNCDEV_QEMU_USER=nobody scripts/vm/vm-run --timeout 300 --log "$tmp/1.log" \
	-- 'sleep 4; echo syncdev-test: slept' >/dev/null 2>&1
rc1=$?
TMPDIR=$tmp/t SYNCDEV_QEMU_USER=nobody scripts/vm/vm-run --timeout 300 --log "$tmp/2.log" \
	-- 'echo syncdev-test: waiting; sleep 120' >"$tmp/2.out" 2>&1 &
run2=$!
for _i in $(seq 600); do
	grep -q '^syncdev-test: waiting' "$tmp/2.log" 2>/dev/null && break
	sleep 0.2
done
sleep 2
kill -TERM "$run2"
wait "$run2"
rc2=$?
: >"$tmp/t/stop"
wait "$attacker"

check_equal "rundir: a boot ends with its command's status" "$rc1" 0
check_output "rundir: the first guest ran its command" '^syncdev-test: slept$' cat "$tmp/1.log"
check_equal "rundir: a TERMed boot says so" "$rc2" 143
# mkdtemp's 700 comes first, then 750 for QEMU's group.
check_equal "rundir: the attacker saw the run directory, root's, mode 700 then 750" \
	"$(sed -n 's|^.*/syncdev-run\.[^/ ]* ||p' "$tmp/t/seen" 2>&1 | grep -vx 'root 700' | sort -u)" \
	"root 750"
check_equal "rundir: nothing the attacker tried in a run directory worked" \
	"$(grep -E '/syncdev-run\.[^/]*/[^/]*$' "$tmp/t/got" 2>/dev/null | sort -u | paste -sd ,)" ""
check_equal "rundir: root's canary is untouched" "$(cat "$tmp/canary")" "root's canary"
if kill -0 "$victim" 2>/dev/null; then
	pass "rundir: root's process lives"
else
	fail "rundir: root's process lives" "it was killed"
fi
# QEMU's command line names its run directory (-kernel, -initrd).
for _i in $(seq 50); do
	pgrep -f "$tmp/t/syncdev-run" >/dev/null || break
	sleep 0.2
done
check_equal "rundir: the TERMed boot's QEMU is gone" "$(pgrep -fc "$tmp/t/syncdev-run")" 0
check_equal "rundir: no run directory is left" "$(ls "$tmp/t" | grep -c syncdev-run)" 0
finish
