#!/bin/sh
# scripts/vm/vm-run when the guest's own kernel dies while booting, before
# /init starts the command (rdinit= and init= name no program: a panic at
# every boot): vm-run boots it once more, says so and keeps the first
# boot's log, and fails when the second boot dies too (exit 125).  A
# kernel that dies after the command started is never booted again.
# Three short guest boots.
. tests/lib.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rc=0
SYNCDEV_APPEND="rdinit=/nonexistent init=/nonexistent" scripts/vm/vm-run --timeout 120 \
	--log "$tmp/boot.log" -- true >"$tmp/boot.out" 2>"$tmp/boot.err" || rc=$?
check_equal "vm-run: a guest that dies at every boot fails (exit 125)" "$rc" 125
check_output "vm-run: a guest that died while booting is booted once more" \
	"died while booting, before the command started.*booting it once more" cat "$tmp/boot.err"
check_equal "vm-run: booted once more, not again" \
	"$(grep -c 'booting it once more' "$tmp/boot.err")" 1
check_output "vm-run: the first boot's log kept" "Kernel panic" cat "$tmp/boot.log.boot-died"

rc=0
scripts/vm/vm-run --timeout 120 --log "$tmp/cmd.log" -- 'echo c >/proc/sysrq-trigger' \
	>"$tmp/cmd.out" 2>"$tmp/cmd.err" || rc=$?
check_equal "vm-run: a kernel that dies while the command runs fails (exit 125)" "$rc" 125
check_equal "vm-run: ... and is not booted again" \
	"$(grep -c 'booting it once more' "$tmp/cmd.err")" 0
finish
