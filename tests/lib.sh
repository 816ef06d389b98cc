# shellcheck shell=sh
# Helpers for the shell tests, on the host (bash) and in the VM (busybox sh).
# Every check prints exactly one "PASS name" or "FAIL name: why" line;
# tests/run counts them.  Source it, run checks, end with "finish".

failures=0

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; failures=$((failures + 1)); }

# check NAME COMMAND...: the command succeeds.
check() {
	name=$1; shift
	if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "'$*' failed: $(echo "$out" | tail -n 3)"; fi
}

# check_exit NAME CODE COMMAND...: the command exits with exactly CODE.
check_exit() {
	name=$1; want=$2; shift 2
	out=$("$@" 2>&1); got=$?
	if [ "$got" = "$want" ]; then pass "$name"; else fail "$name" "'$*' exited $got, want $want: $(echo "$out" | tail -n 3)"; fi
}

# check_output NAME PATTERN COMMAND...: output (stdout+stderr) matches a grep -E pattern.
check_output() {
	name=$1; pat=$2; shift 2
	out=$("$@" 2>&1)
	if echo "$out" | grep -Eq -- "$pat"; then pass "$name"; else fail "$name" "output of '$*' does not match /$pat/: $(echo "$out" | tail -n 3)"; fi
}

# check_same NAME FILE1 FILE2: byte-for-byte equal.
check_same() {
	if cmp -s "$2" "$3"; then pass "$1"; else fail "$1" "$2 and $3 differ"; fi
}

# check_equal NAME GOT WANT: two strings are equal.
check_equal() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got '$2', want '$3'"; fi
}

finish() { [ "$failures" -eq 0 ]; exit $?; }

# wait_for_peer [SECONDS]: in the two-VM mode, wait until the other guest
# ($SYNCDEV_PEER) answers ping (about SECONDS, default 60); non-zero if it
# never does.
wait_for_peer() {
	n=${1:-60}
	while [ "$n" -gt 0 ]; do
		ping -c 1 -W 1 "$SYNCDEV_PEER" >/dev/null 2>&1 && return 0
		# ping fails at once while the link is still down.
		sleep 1
		n=$((n - 1))
	done
	return 1
}

# peer_meet PORT NAME [SECONDS]: in the two-VM mode, wait until the other
# guest reaches the same point (peersync on PORT: the master listens, the
# slave connects), up to SECONDS (default 300); a FAIL line if it does not.
peer_meet() {
	if [ "$SYNCDEV_ROLE" = master ]; then
		out=$(peersync --port "$1" --timeout "${3:-300}" --listen "$2" 2>&1)
	else
		out=$(peersync --port "$1" --timeout "${3:-300}" "$2" "$SYNCDEV_PEER" 2>&1)
	fi || fail "barrier $2" "$out"
}
