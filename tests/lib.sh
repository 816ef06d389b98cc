# shellcheck shell=sh
# Helpers for the shell tests, on the host (bash) and in the VM (busybox sh).
# Every check prints exactly one "PASS name" or "FAIL name: why" line;
# tests/run counts them.  Source it, run checks, end with "finish".
# The helpers' own variables start with "_", so that they never overwrite
# a test's (busybox sh has "local", but POSIX sh does not).
# shellcheck disable=SC2034 # its variables are for the scripts that source it

failures=0

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; failures=$((failures + 1)); }

# check NAME COMMAND...: the command succeeds.
check() {
	_name=$1; shift
	if _out=$("$@" 2>&1); then pass "$_name"; else fail "$_name" "'$*' failed: $(echo "$_out" | tail -n 3)"; fi
}

# check_exit NAME CODE COMMAND...: the command exits with exactly CODE.
check_exit() {
	_name=$1; _want=$2; shift 2
	_out=$("$@" 2>&1); _got=$?
	if [ "$_got" = "$_want" ]; then pass "$_name"; else fail "$_name" "'$*' exited $_got, want $_want: $(echo "$_out" | tail -n 3)"; fi
}

# check_output NAME PATTERN COMMAND...: output (stdout+stderr) matches a grep -E pattern.
check_output() {
	_name=$1; _pat=$2; shift 2
	_out=$("$@" 2>&1)
	if echo "$_out" | grep -Eq -- "$_pat"; then pass "$_name"; else fail "$_name" "output of '$*' does not match /$_pat/: $(echo "$_out" | tail -n 3)"; fi
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

# The machine note every benchmark table starts with (sysinfo_note).
MACHINE_NOTE="^# machine: .*, $(nproc) CPUs online, .*, Linux "

# wait_for_peer [SECONDS]: in the two-VM mode, wait until the other guest
# ($SYNCDEV_PEER) answers ping (about SECONDS, default 60); non-zero if it
# never does.
wait_for_peer() {
	_n=${1:-60}
	while [ "$_n" -gt 0 ]; do
		ping -c 1 -W 1 "$SYNCDEV_PEER" >/dev/null 2>&1 && return 0
		# ping fails at once while the link is still down.
		sleep 1
		_n=$((_n - 1))
	done
	return 1
}

# peer_meet PORT NAME [SECONDS]: in the two-VM mode, wait until the other
# guest reaches the same point (peersync on PORT: the master listens, the
# slave connects), up to SECONDS (default 300); a FAIL line if it does not.
peer_meet() {
	if [ "$SYNCDEV_ROLE" = master ]; then
		_out=$(peersync --port "$1" --timeout "${3:-300}" --listen "$2" 2>&1)
	else
		_out=$(peersync --port "$1" --timeout "${3:-300}" "$2" "$SYNCDEV_PEER" 2>&1)
	fi || fail "barrier $2" "$_out"
}
