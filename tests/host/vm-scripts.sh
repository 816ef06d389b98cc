#!/bin/sh
# The VM scripts' command lines, and how the host reads a guest's console
# log (scripts/vm/vm-common.sh), on made-up logs: no guest is booted here.
. tests/lib.sh

for s in vm/vm-build vm/vm-run vm/vm-pair vm/vm-test vm/vm-shell vm/vm-kernel vm/vm-accel grade/grade \
	lint/check-kernel lint/check-clang vm/debug-kernel; do
	check_output "scripts/$s --help" "scripts/$s" "scripts/$s" --help
	check_exit "scripts/$s with a bad option is a usage error" 2 "scripts/$s" --bogus
done
check_exit "vm-run without a command is a usage error" 2 scripts/vm/vm-run --
check_exit "vm-run --net-role needs --net-link" 2 scripts/vm/vm-run --net-role master -- true
check_exit "vm-run rejects an unknown role" 2 scripts/vm/vm-run --net-role boss --net-link /tmp -- true
check_exit "vm-run --timeout takes a number" 2 scripts/vm/vm-run --timeout soon -- true
check_exit "vm-run --share needs a directory" 2 scripts/vm/vm-run --share /nonexistent -- true
check_exit "vm-shell --share needs a directory" 2 scripts/vm/vm-shell --share /nonexistent
check_exit "grade: --vms is 1, 2 or both" 2 scripts/grade/grade --vms 3
check_output "grade: an unknown data set is refused" "unknown data set 'huge'" scripts/grade/grade --data small,huge
check_exit "grade: an unknown method pair is refused" 2 scripts/grade/grade --methods fcntl-dma
check_exit "grade: --module and --module-src exclude each other" 2 \
	scripts/grade/grade --module kernel/Kbuild --module-src kernel
check_exit "grade: --batch takes the programs from the students' directories" 2 \
	scripts/grade/grade --batch tests --master build/master
check_exit "grade: --timeout takes a number" 2 scripts/grade/grade --timeout soon
check_exit "vm-run --disk takes a number" 2 scripts/vm/vm-run --disk big -- true
check_exit "vm-pair --disk takes a number" 2 scripts/vm/vm-pair --disk big -- true
check_output "SYNCDEV_KERNEL naming no built kernel is refused" "no built kernel in /nonexistent" \
	env SYNCDEV_KERNEL=/nonexistent scripts/vm/vm-run -- true
check_output "SYNCDEV_TIME_SCALE must be a positive integer" "positive integer, not '0'" \
	env SYNCDEV_TIME_SCALE=0 scripts/vm/vm-run -- true
check_output "SYNCDEV_SIZE_DIV must be a positive integer" "SYNCDEV_SIZE_DIV must be a positive integer, not 'x'" \
	env SYNCDEV_SIZE_DIV=x scripts/vm/vm-run -- true
check_equal "bulk: a bulk size is whole under the stock kernel" \
	"$(sh -c '. tests/lib-xfer.sh; bulk 67108864')" 67108864
check_equal "bulk: divided by SYNCDEV_SIZE_DIV under a debug kernel" \
	"$(SYNCDEV_SIZE_DIV=4 sh -c '. tests/lib-xfer.sh; bulk 67108864')" 16777216
check_equal "bulk: never below its floor" \
	"$(SYNCDEV_SIZE_DIV=8 sh -c '. tests/lib-xfer.sh; bulk 67108864 16777216')" 16777216

# vm-test --costs: each script's "# vm-cost" (the one home of that figure)
# beside the newest console log's "took N s" for it, "-" when no log has it.
C=$(mktemp -d)
mkdir -p "$C/logs"
printf 'syncdev-vm: took 40 s: vm/30-errors.sh\r\n' >"$C/logs/20260101-000000-vm-test-1.log"
printf 'syncdev-vm: took 12 s: vm/30-errors.sh\nsyncdev-vm: took 9 s: vm/30-errors.sh.bak\n%s\n' \
	'syncdev-vm: took 7 s: vm-pair/30-errors.sh' \
	>"$C/logs/20260102-000000-vm-test-1.log"
costs=$(SYNCDEV_VM_DIR=$C scripts/vm/vm-test --costs)
rm -rf "$C"
check_equal "vm-test --costs: the cost, and the newest log's time" \
	"$(echo "$costs" | grep '^tests/vm/30-errors.sh ')" \
	"tests/vm/30-errors.sh $(sed -n 's/^# vm-cost: *//p' tests/vm/30-errors.sh) 12"
check_output "vm-test --costs: no log, no time" '^tests/vm/00-harness.sh [0-9]+ -$' echo "$costs"
check_equal "vm-test --costs: every script of tests/vm and tests/vm-pair, once" \
	"$(echo "$costs" | wc -l)" "$(ls tests/vm/*.sh tests/vm-pair/*.sh | wc -l)"
check_equal "every guest script has its # vm-cost" \
	"$(grep -L '^# vm-cost: [0-9]' tests/vm/*.sh tests/vm-pair/*.sh)" ""

# vm-test --plan: how tests/vm is shared out among guests side by side,
# the pair (tests/vm-pair) first in the last of two or more.
all=$(cd tests/vm && ls -- *.sh | sort | paste -sd ' ')
plan_scripts() {
	grep '^guest ' | sed 's/^guest [0-9]* ([^)]*): //; s/^tests\/vm-pair (about [0-9]* s), then //' |
		tr ' ' '\n' | sort | paste -sd ' '
}
check_equal "vm-test --plan: two guests for two CPUs" \
	"$(SYNCDEV_VM_JOBS=2 scripts/vm/vm-test --plan | wc -l)" 2
check_equal "vm-test --plan: every script once among them" \
	"$(SYNCDEV_VM_JOBS=2 scripts/vm/vm-test --plan | plan_scripts)" "$all"
check_output "vm-test --plan: the pair first in the last of two guests" \
	'^guest 2 \(about [0-9]+ s under the debug kernel\): tests/vm-pair \(about [0-9]+ s\), then [0-9]' \
	env SYNCDEV_VM_JOBS=2 scripts/vm/vm-test --plan
check_equal "vm-test --plan: one guest runs them all" \
	"$(SYNCDEV_VM_JOBS=1 scripts/vm/vm-test --plan | plan_scripts)" "$all"
check_equal "vm-test --plan: with one guest, the pair after it" \
	"$(SYNCDEV_VM_JOBS=1 scripts/vm/vm-test --plan | grep -c vm-pair)" 0
check_equal "vm-test --plan: never more guests than scripts" \
	"$(SYNCDEV_VM_JOBS=99 scripts/vm/vm-test --plan | grep -c '^guest ')" "$(echo "$all" | wc -w)"
check_output "vm-test --plan: the pair beside guests that all have scripts" \
	'^beside them: tests/vm-pair \(about [0-9]+ s under the debug kernel\)$' \
	env SYNCDEV_VM_JOBS=99 scripts/vm/vm-test --plan
check_output "vm-test: SYNCDEV_VM_JOBS must be a positive integer" \
	"SYNCDEV_VM_JOBS must be a positive integer, not '0'" env SYNCDEV_VM_JOBS=0 scripts/vm/vm-test --plan

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check_output "debug-kernel --key is a hash of the inputs" '^[0-9a-f]{16}$' scripts/vm/debug-kernel --key
check_exit "debug-kernel --print-path fails when nothing is cached" 1 \
	env SYNCDEV_CACHE="$tmp/cache" scripts/vm/debug-kernel --print-path
check_output "SYNCDEV_KERNEL=debug with nothing cached says how to build it" \
	"no debug kernel for this configuration in $tmp/cache/debug-kernel/.*run scripts/vm/debug-kernel" \
	env SYNCDEV_CACHE="$tmp/cache" SYNCDEV_KERNEL=debug scripts/vm/vm-run -- true
# Console log of a guest whose test printed "BUG:" itself (not a kernel
# line) and whose kernel log holds a WARNING; then a clean one; then a
# guest that panicked before the dump.
cat >"$tmp/warn.log" <<'LOG'
syncdev-vm: command starts
syncdev-vm: test vm/10-x.sh
PASS output mentions BUG: as text
syncdev-vm: kernel log begins
[    0.100000] Linux version 6.1.0
[    5.000000] WARNING: CPU: 1 PID: 77 at kernel/x.c:10 f+0x1/0x2
syncdev-vm: kernel log ends
syncdev-vm: exit status 0
LOG
grep -v WARNING "$tmp/warn.log" >"$tmp/clean.log"
cat >"$tmp/panic.log" <<'LOG'
syncdev-vm: command starts
syncdev-vm: test vm/20-y.sh
[    3.352081] Kernel panic - not syncing: sysrq triggered crash
LOG
# What the debug kernel's checkers print first, each alone in a log.
for report in \
	'BUG: KASAN: slab-use-after-free in syncdev_release+0x1/0x2 [syncdev]' \
	'UBSAN: shift-out-of-bounds in kernel/x.c:10:5' \
	'WARNING: possible circular locking dependency detected' \
	'BUG: sleeping function called from invalid context at kernel/x.c:10' \
	'kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)' \
	'ODEBUG: free active (active state 0) object: 00000000 object type: timer_list' \
	'INFO: trying to register non-static key.' \
	'kernel BUG at lib/list_debug.c:30!'; do
	printf 'syncdev-vm: kernel log begins\n[    9.000000] %s\nsyncdev-vm: kernel log ends\n' "$report"
done >"$tmp/debug.log"

# vm_common FUNCTION ARG...: call one of scripts/vm/vm-common.sh's
# functions; the library is bash's, this test sh's.
vm_common() { bash -c '. scripts/vm/vm-common.sh && "$@"' vm_common "$@"; }
check_equal "kernel WARNING found, test text ignored" "$(vm_common vm_log_problems "$tmp/warn.log")" \
	"[    5.000000] WARNING: CPU: 1 PID: 77 at kernel/x.c:10 f+0x1/0x2"
check_equal "every debug-kernel report found" "$(vm_common vm_log_problems "$tmp/debug.log" | wc -l)" 8
check_equal "clean kernel log has no problems" "$(vm_common vm_log_problems "$tmp/clean.log")" ""
check_equal "panic on the console found" "$(vm_common vm_log_problems "$tmp/panic.log")" \
	"[    3.352081] Kernel panic - not syncing: sysrq triggered crash"
check_equal "exit status read" "$(vm_common vm_exit_status "$tmp/warn.log")" 0
check_equal "no exit status when the guest died" "$(vm_common vm_exit_status "$tmp/panic.log")" ""
check_equal "current test read" "$(vm_common vm_current_test "$tmp/panic.log")" vm/20-y.sh
check_equal "console cap: all of a console under the cap, and no note" \
	"$(printf 'abc\n' | SYNCDEV_CONSOLE_MAX=10 vm_common vm_console_cap | od -An -c | tr -s ' ')" " a b c \\n"
check_equal "console cap: exactly the cap, and no note" \
	"$(printf '0123456789' | SYNCDEV_CONSOLE_MAX=10 vm_common vm_console_cap)" 0123456789
check_equal "console cap: a flood cut at the cap, with a note, the rest drained" \
	"$(head -c 1000000 /dev/zero | tr '\0' x | SYNCDEV_CONSOLE_MAX=10 vm_common vm_console_cap | paste -sd '|')" \
	"xxxxxxxxxx|vm-run: console output over 10 bytes: the rest was dropped"
check_equal "console cap: unset, everything" \
	"$(head -c 100000 /dev/zero | tr '\0' x | vm_common vm_console_cap | wc -c)" 100000

# Kernel names: an unknown one is refused with the names it could be.
check_output "an unknown kernel name is refused" "unknown kernel '6.13': 6.1, 6.12, newest, debug" \
	scripts/vm/vm-run --kernel 6.13 -- true
check_output "vm-kernel: an unknown kernel name is refused" "unknown kernel 'lts'" scripts/vm/vm-kernel lts
check_exit "vm-kernel: --print-path with nothing cached fails" 1 \
	env SYNCDEV_CACHE="$tmp/cache" scripts/vm/vm-kernel --print-path newest
check_output "vm-kernel --list names every kernel" "6\.12 .*bookworm-backports" scripts/vm/vm-kernel --list

# A guest that never boots (a kernel image QEMU cannot load), in a fresh
# image directory without a log folder: vm-test says so for the guest and
# for each script it was to run, and does not call its kernel log clean.
kit=$tmp/kit
mkdir -p "$kit"
rel=$(cat "$(scripts/vm/vm-kernel 6.1)/release")
echo "$rel" >"$kit/release"
echo "/lib/modules/$rel/build" >"$kit/kdir"
ln -s / "$kit/root"
echo "not a kernel" >"$kit/vmlinuz"
out=$(SYNCDEV_VM_DIR="$tmp/vm" SYNCDEV_VM_JOBS=1 SYNCDEV_KERNEL="$kit" \
	scripts/vm/vm-test --scripts 00-harness.sh,10-transfer.sh single 2>&1)
rc=$?
check_equal "vm-test: a guest that never boots fails the run" "$rc" 1
check_output "vm-test: a guest that never boots is named" '^FAIL \[guest 1\] guest: never booted' echo "$out"
check_output "vm-test: each script it was to run is a FAIL" '^FAIL \[guest 1\] vm/10-transfer.sh: did not run' echo "$out"
check_equal "vm-test: no kernel log is called clean without a boot" \
	"$(echo "$out" | grep -c 'PASS.*kernel log clean')" 0
check_equal "vm-test: nothing passes" "$(echo "$out" | grep -c '^PASS')" 0
finish
