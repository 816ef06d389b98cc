# shellcheck shell=sh
# What another local user can see of a file while it is received, and
# what the receiver may replace (user/libsyncdev/outfile/outfile.c, outrules.c),
# through tcpcopy recv, which writes its output as the slave does: the
# temporary file has its final owner and mode before its first byte (a
# 0600 file is never readable by others through it), and a file or link
# planted by another user in a sticky directory is treated as the
# kernel's fs.protected_regular and fs.protected_symlinks say at this
# machine's levels (tests/vm/85-outfile-rules.sh sets each level).
. tests/lib.sh

B=build
BP=$B/tests/tools/badpeer
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
chmod 755 "$T"
port=$((16000 + $$ % 4000))
umask 022
$B/tests/tools/gendata 100000 3 >"$T/in"

# during DIR NAME: a sender stalls after half of in; once that half is in
# DIR/NAME's temporary file, print the file's "uid gid mode"; then both
# ends are stopped.
during() {
	$BP master --tcpcopy --stall 30 --port $port stall "$T/in" \
		>"$T/peer.out" 2>&1 &
	_bp=$!
	$B/tcpcopy recv 127.0.0.1:$port "$1/$2" -w 5000 >"$T/recv.out" 2>&1 &
	_rp=$!
	_i=0
	while [ $_i -lt 100 ]; do
		set -- "$1" "$2" "$1"/."$2".syncdev-*
		[ -f "$3" ] && [ "$(stat -c %s "$3")" -ge 50000 ] && break
		sleep 0.1
		_i=$((_i + 1))
	done
	[ -f "$3" ] && stat -c '%u %g %a' "$3"
	kill $_rp $_bp 2>/dev/null
	wait $_rp $_bp 2>/dev/null
}

: >"$T/secret"
chmod 600 "$T/secret"
check_equal "replacing a 0600 file: the temporary is 0600 while data arrives" \
	"$(during "$T" secret)" "$(id -u) $(id -g) 600"
check_equal "a new name: the temporary is 0666 less the umask while data arrives" \
	"$(during "$T" fresh)" "$(id -u) $(id -g) 644"
if [ "$(id -u)" = 0 ]; then
	: >"$T/theirs"
	chown 65534:65534 "$T/theirs"
	chmod 640 "$T/theirs"
	check_equal "root replacing uid 65534's 0640 file: the temporary is theirs and 0640 while data arrives" \
		"$(during "$T" theirs)" "65534 65534 640"
fi

# recv_to NAME: a whole transfer of in into $S/NAME; its exit status.
recv_to() {
	$BP master --tcpcopy --port $port ok "$T/in" >"$T/peer.out" 2>&1 &
	_bp=$!
	$B/tcpcopy recv 127.0.0.1:$port "$S/$1" -w 5000 >"$T/recv.out" 2>&1
	_rc=$?
	kill $_bp 2>/dev/null
	wait $_bp 2>/dev/null
	return $_rc
}

# In a sticky directory anyone may write, as root, with another user's
# file and link planted: refused at the levels where the kernel refuses.
if [ "$(id -u)" = 0 ]; then
	S=$T/sticky
	mkdir "$S"
	chmod 1777 "$S"
	echo planted >"$S/planted"
	chown 65534:65534 "$S/planted"
	regular=$(cat /proc/sys/fs/protected_regular)
	if [ "$regular" -ge 1 ]; then
		recv_to planted
		check_equal "protected_regular $regular: uid 65534's file in a sticky dir: exit 1" $? 1
		check_output "protected_regular $regular: says why" \
			"output .*planted is a file of another user \(uid 65534\) in the sticky directory .*fs.protected_regular" \
			cat "$T/recv.out"
		check_equal "protected_regular $regular: the planted file untouched" \
			"$(cat "$S/planted")" planted
	else
		check "protected_regular 0: uid 65534's file in a sticky dir is replaced" \
			recv_to planted
		check_same "protected_regular 0: the data in place" "$T/in" "$S/planted"
		check_equal "protected_regular 0: it keeps its owner" \
			"$(stat -c %u "$S/planted")" 65534
	fi
	echo mine >"$T/target"
	ln -s "$T/target" "$S/link"
	chown -h 65534:65534 "$S/link"
	symlinks=$(cat /proc/sys/fs/protected_symlinks)
	if [ "$symlinks" -ge 1 ]; then
		recv_to link
		check_equal "protected_symlinks $symlinks: uid 65534's link in a sticky dir: exit 1" $? 1
		check_output "protected_symlinks $symlinks: says why" \
			"symbolic link of another user \(uid 65534\) in the sticky, world-writable directory .*fs.protected_symlinks" \
			cat "$T/recv.out"
		check_equal "protected_symlinks $symlinks: its target untouched" \
			"$(cat "$T/target")" mine
	else
		check "protected_symlinks 0: uid 65534's link in a sticky dir is followed" \
			recv_to link
		check_same "protected_symlinks 0: the data in its target" "$T/in" "$T/target"
	fi
fi
finish
