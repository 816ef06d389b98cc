#!/bin/bash
# The grader boots a battery again, once, when a guest never started it
# (scripts/grade/grade-boot.sh, boot_again_once), without a boot: the rule
# (boot_unstarted) on made-up control files, console logs and aborted
# files, and the loop with the boot itself stood in for.  A guest that sent
# nothing on its control channel and shows no kernel problem is booted
# again; one that began a case, or gave up (its "done"), or left an
# aborted file, or whose module panicked, is not; a second boot that
# starts nothing is not followed by a third, and its fate says so.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. tests/lib.sh
# shellcheck source=scripts/vm/vm-common.sh
. scripts/vm/vm-common.sh
# shellcheck source=scripts/grade/grade-boot.sh
. scripts/grade/grade-boot.sh

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grade-retry.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# stage NAME: a fresh stage directory for one made-up boot.
stage() { rm -rf "${tmp:?}/$1"; mkdir -p "$tmp/$1/results/1vm" "$tmp/$1/results/2vm"; echo "$tmp/$1"; }

s=$(stage quiet)
echo "ignored 0" >"$s/1vm.control"
printf 'Linux version 6.1\nsyncdev-vm: /init\n' >"$s/1vm.log"
check_equal "a guest that sent nothing and shows no problem is booted again" \
	"$(boot_unstarted "$s" 1vm)" 1vm
rm "$s/1vm.control"
check_equal "a guest with no control file at all is booted again" "$(boot_unstarted "$s" 1vm)" 1vm

s=$(stage begun)
printf 'begin 1 812\nignored 0\n' >"$s/1vm.control"
check_exit "a guest that began a case is not booted again" 1 boot_unstarted "$s" 1vm

s=$(stage gaveup)
printf 'done 640\nignored 0\n' >"$s/1vm.control"
check_exit "a harness that gave up (its done) is not booted again" 1 boot_unstarted "$s" 1vm

s=$(stage aborted)
echo "ignored 0" >"$s/1vm.control"
echo "the control channel could not be opened" >"$s/results/1vm/aborted.vm"
check_exit "a guest that left an aborted file is not booted again" 1 boot_unstarted "$s" 1vm

s=$(stage panic)
echo "ignored 3" >"$s/1vm.control"
printf '[    4.100000] Kernel panic - not syncing: student module\n' >"$s/1vm.log"
check_exit "a guest whose kernel panicked (a module at load) is not booted again" 1 \
	boot_unstarted "$s" 1vm

s=$(stage pair)
printf 'begin 1 900\ndone 1200\nignored 0\n' >"$s/2vm-slave.control"
echo "ignored 0" >"$s/2vm-master.control"
check_equal "two guests: the one that started nothing is named" \
	"$(boot_unstarted "$s" 2vm)" 2vm-master
printf 'begin 1 700\nignored 0\n' >"$s/2vm-master.control"
check_exit "two guests that both began are not booted again" 1 boot_unstarted "$s" 2vm

# The loop, the boot stood in for: a guest that never starts is booted
# twice, not three times; one that starts on the second try once more.
s=$(stage twice)
never_starts() { echo boot >>"$1/boots"; echo "ignored 0" >"$1/1vm.control"; echo try >"$1/1vm.log"; }
boot_again_once "$s" 1vm never_starts
check_equal "a guest that never starts: two boots, not more" "$(wc -l <"$s/boots")" 2
check "the first try's console log is kept" test -f "$s/1vm.first.log"
check_output "retried.1vm says which guest started nothing" "^the guest 1vm started no case" \
	cat "$s/retried.1vm"
check_output "the boot's fate: no case on two boots" "^guest 1vm started no case, on two boots$" \
	boot_fate "$s" 1vm
s=$(stage second)
starts_second() {
	echo boot >>"$1/boots"
	if [ "$(wc -l <"$1/boots")" = 1 ]; then echo "ignored 0"; else printf 'begin 1 5\ndone 9\nignored 0\n'; fi \
		>"$1/1vm.control"
}
boot_again_once "$s" 1vm starts_second
check_equal "a guest that starts on the second boot: two boots" "$(wc -l <"$s/boots")" 2
check_equal "and its fate is not the retry's" "$(boot_fate "$s" 1vm | grep -c 'on two boots')" 0
s=$(stage once)
starts() { echo boot >>"$1/boots"; printf 'begin 1 5\nignored 0\n' >"$1/1vm.control"; }
boot_again_once "$s" 1vm starts
check_equal "a guest that starts: one boot" "$(wc -l <"$s/boots")" 1
check "and no retried file" test ! -e "$s/retried.1vm"
finish
