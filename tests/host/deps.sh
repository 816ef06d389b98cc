#!/bin/sh
# scripts/deps: make demo installs the build and one guest, nothing of the
# test set (no browser, Slurm, munge, GNU parallel or debootstrap), and
# every set is contained in the next (demo, test, bench).
. tests/lib.sh

demo=$(scripts/deps --print --demo) || fail "deps --print --demo" "exit $?"
test_set=$(scripts/deps --print) || fail "deps --print" "exit $?"
bench=$(scripts/deps --print --bench) || fail "deps --print --bench" "exit $?"

extra=""
for p in chromium slurm-wlm munge parallel debootstrap clang sparse; do
	printf '%s\n' "$demo" | grep -qx "$p" && extra="$extra $p"
done
check "deps: the demo set has none of the test tools" [ -z "$extra" ]
missing=""
for p in build-essential qemu-system-x86 busybox-static linux-image-amd64 linux-headers-amd64; do
	printf '%s\n' "$demo" | grep -qx "$p" || missing="$missing $p"
done
check "deps: the demo set has the build, QEMU, busybox and the kernel" [ -z "$missing" ]

# subset A B: every line of A is a line of B.
subset() {
	printf '%s\n' "$1" | while read -r p; do
		printf '%s\n' "$2" | grep -qx "$p" || { echo "$p"; break; }
	done
}
check "deps: the test set holds the demo set" [ -z "$(subset "$demo" "$test_set")" ]
check "deps: the bench set holds the test set and fio" \
	sh -c '[ -z "$1" ] && printf "%s\n" "$2" | grep -qx fio' sh "$(subset "$test_set" "$bench")" "$bench"
check "deps: make demo and make bench-transfer ask for the demo set only" \
	sh -c '[ "$(grep -A1 -E "^(demo|bench-transfer):" Makefile | grep -c "scripts/deps --demo")" = 2 ]'
scripts/deps --bogus >/dev/null 2>&1
check "deps: an unknown option is a usage error (exit 2)" [ $? = 2 ]
finish
