# shellcheck shell=sh
# vm-timeout: 900
# vm-cost: 194
# The ioctl/mmap fuzzer (tests/tools/fuzz.c), 64-bit and 32-bit (the
# compat ioctl path), with a small buffer so that its edges are hit
# often: SYNCDEV_FUZZ_CALLS calls in all (default 100000, 50000 under a
# debug kernel, where each call takes tens of times longer; fewer on the
# kernels that run a subset).  A new seed each run, printed, so a failure
# can be replayed:
#   insmod syncdev.ko buf_size=65536; fuzz --seed N --calls N
# The harness checks the kernel log and that rmmod succeeds afterwards.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

ko=$SYNCDEV_ROOT/kernel/syncdev.ko
seed=${SYNCDEV_FUZZ_SEED:-$(date +%s)}
rmmod syncdev
check "insmod buf_size=65536 for the fuzzer" insmod "$ko" buf_size=65536

# fuzz_run NAME PROGRAM CALLS SEED: its PASS/FAIL lines; a crash is a FAIL.
fuzz_run() {
	out=$("$2" --seed "$4" --calls "$3" --seconds 700 2>&1)
	rc=$?
	echo "$out" | grep -E '^(PASS|FAIL) '
	if [ $rc -ne 0 ] && ! echo "$out" | grep -q '^FAIL '; then
		fail "$1 seed $4" "exited $rc: $(echo "$out" | tail -n 3)"
	fi
}

# 30 % of the calls through the compat path.
calls=100000
slow_kernel && calls=50000
calls=${SYNCDEV_FUZZ_CALLS:-$calls}
fuzz_run fuzz fuzz $((calls - calls * 3 / 10)) "$seed"
if command -v fuzz32 >/dev/null; then
	fuzz_run fuzz32 fuzz32 $((calls * 3 / 10)) $((seed + 1))
else
	fail "fuzz32" "not built: the compiler cannot build 32-bit programs (gcc-multilib)"
fi
rmmod syncdev
check "insmod with defaults again" insmod "$ko"
finish
