#!/bin/sh
# build/gradeclass share-read and share-copy on a share as a hostile guest
# leaves it: a link to a canary outside the share (last component and
# middle one), a FIFO (each command runs under timeout: a blocked open
# fails the check instead of hanging the run), a directory, '..', an
# absolute path, a file far past the cap; and share-copy's refusals of an
# existing DEST and a link planted at DEST.
. tests/lib.sh

g=build/gradeclass
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
s=$tmp/share
mkdir -p "$s/d" "$tmp/real"
printf 'secret\n' >"$tmp/canary"
printf 'hello\n' >"$s/d/info"
printf 'inner\n' >"$tmp/real/info"
ln -s "$tmp/canary" "$s/info"
ln -s "$tmp/real" "$s/dl"
mkfifo "$s/first"
head -c 3000000 /dev/zero >"$s/big"

# run NAME CODE PATTERN ARGS...: gradeclass ARGS under a timeout exits
# CODE and says PATTERN on stderr.
run() {
	_n=$1 _c=$2 _p=$3
	shift 3
	_err=$(timeout 10 "$g" "$@" 2>&1 >"$tmp/out")
	_rc=$?
	if [ "$_rc" = "$_c" ] && printf '%s\n' "$_err" | grep -Eq -- "$_p"; then
		pass "$_n"
	else
		fail "$_n" "exit $_rc (want $_c), stderr: $_err"
	fi
}

run "share-read: a regular file in a directory" 0 '^$' share-read "$s" d/info
check_equal "share-read: its bytes on stdout" "$(cat "$tmp/out")" hello
run "share-read: a link to a canary refused" 1 'info is a symbolic link' share-read "$s" info
check_equal "share-read: nothing of the canary written" "$(cat "$tmp/out")" ""
run "share-read: a link in a middle component refused" 1 'dl is a symbolic link' share-read "$s" dl/info
run "share-read: a FIFO refused without blocking" 1 'first is a FIFO' share-read "$s" first
run "share-read: a directory refused" 1 'd is a directory' share-read "$s" d
run "share-read: '..' refused" 1 "has a '\.\.' component" share-read "$s/d" ../d/info
run "share-read: an absolute path refused" 1 'is absolute' share-read "$s" "$tmp/canary"
run "share-read: a missing file refused" 1 'No such file' share-read "$s" nope
run "share-read: a huge file capped at the default 1 MiB, exit 3" 3 'more than 1048576 bytes' share-read "$s" big
check_equal "share-read: exactly 1 MiB written" "$(wc -c <"$tmp/out")" 1048576
run "share-read: --max 4 of a 6-byte file, exit 3" 3 'first 4 copied' share-read --max 4 "$s" d/info
check_equal "share-read: the first 4 bytes" "$(cat "$tmp/out")" hell
run "share-read: --max of exactly the size is whole" 0 '^$' share-read --max 6 "$s" d/info
run "share-read: a bad --max" 2 'wants a number of bytes' share-read --max -1 "$s" d/info
run "share-read: a missing operand" 2 'usage: gradeclass share-read' share-read "$s"

run "share-copy: a regular file into DEST" 0 '^$' share-copy "$s" d/info "$tmp/copy"
check_same "share-copy: DEST holds its bytes" "$s/d/info" "$tmp/copy"
check_equal "share-copy: DEST is mode 0644" "$(stat -c %a "$tmp/copy")" 644
run "share-copy: an existing DEST refused" 1 'File exists' share-copy "$s" d/info "$tmp/copy"
ln -s "$tmp/canary" "$tmp/planted"
run "share-copy: a link at DEST refused" 1 'File exists' share-copy "$s" d/info "$tmp/planted"
check_equal "share-copy: the link's target untouched" "$(cat "$tmp/canary")" secret
run "share-copy: a link in the share refused, DEST not made" 1 'symbolic link' share-copy "$s" info "$tmp/copy2"
if [ -e "$tmp/copy2" ]; then fail "share-copy: no DEST after a refusal" "$tmp/copy2 exists"; else pass "share-copy: no DEST after a refusal"; fi
run "share-copy: a huge file capped, exit 3" 3 'more than 1000 bytes' share-copy --max 1000 "$s" big "$tmp/big"
check_equal "share-copy: DEST holds the first 1000 bytes" "$(wc -c <"$tmp/big")" 1000
finish
