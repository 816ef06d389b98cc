#!/bin/sh
# shellcheck shell=sh
# What master, slave and tcpcopy say of themselves in --help and in their
# man pages, held to each other and to the code (the option names and
# the exit-status numbers alone: manpages.sh):
# - durability: slave --help and slave.1 word what is flushed and when
#   alike, in the order outfile_commit_all (outset.c) does it, for the
#   file systems outfile_syncfs_untrusted names; --no-sync leaves out what
#   outset.c leaves out; tcpcopy's recv flushes as the slave, --tar not;
# - exit statuses: each code a --help or a man page names has the meaning
#   of util.h's EXIT_* of that number, and no other's;
# - defaults: ports, buffer, waits, timeouts, key sizes and the drop log,
#   as the headers' constants and the module's parameters say;
# - the time line: T starts after the handshake, where main() reads the
#   clock.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
B=build
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# flat: stdin on one line, blanks squeezed, the "(2)" of references out.
flat() {
	tr '\n\t' '  ' | tr -s ' ' | sed 's/([1-9])//g; s/^ //; s/ $//'
}

# const NAME FILE...: the value of "#define NAME V" or "NAME = V," in the
# FILEs, evaluated; a V that names another constant of the FILEs is
# followed.  Empty when there is none.
const() {
	_n=$1
	shift
	_v=$(sed -n "s/^#define[[:space:]][[:space:]]*${_n}[[:space:]][[:space:]]*\([^/]*\).*/\1/p
		s/^[[:space:]]*$_n = \([^,]*\),.*/\1/p" "$@" | head -n 1 |
		sed 's/[[:space:]]*$//; s/\([0-9]\)[uUlL]*/\1/g')
	case $_v in
	'') ;;
	[A-Z_]*[A-Z_]) const "$_v" "$@" ;;
	*)
		# shellcheck disable=SC2004 # the text of _v is the expression
		echo $(($_v))
		;;
	esac
}

# param NAME: the default of the module's parameter NAME (kernel/main.c).
param() {
	grep -q "^module_param_named($1, " kernel/main.c &&
		sed -n "s/^[a-z ]*syncdev_$1 = \([0-9][0-9]*\);.*/\1/p" kernel/main.c
}

# size_word BYTES: as --help writes a size (1M, 4K).
size_word() {
	if [ $(($1 % 1048576)) -eq 0 ]; then echo "$(($1 / 1048576))M"
	elif [ $(($1 % 1024)) -eq 0 ]; then echo "$(($1 / 1024))K"
	else echo "$1"; fi
}

# number_word N: as prose writes a small number.
number_word() {
	set -- "$1" one two three four five six seven eight nine ten
	_i=$1
	if [ "$_i" -ge 1 ] && [ "$_i" -le 10 ]; then shift "$_i"; echo "$1"; else echo "$_i"; fi
}

# body FILE FUNCTION: the lines of FUNCTION's definition in FILE.
body() {
	awk -v f="$2" 'index($0, f "(") && /^[a-z]/ && !/;$/ { on = 1 } on { print } on && /^}/ { exit }' "$1"
}

# in_order TEXT WORD...: 0 when the WORDs appear in TEXT in that order.
in_order() {
	_t=$1
	shift
	ORDER_TEXT=$_t awk 'BEGIN {
		t = ENVIRON["ORDER_TEXT"]; p = 0
		for (i = 1; i < ARGC; i++) {
			q = index(substr(t, p + 1), ARGV[i])
			if (!q) { print "missing or out of order: " ARGV[i]; exit 1 }
			p += q + length(ARGV[i]) - 1
		}
		exit 0 }' "$@"
}

# doc PROGRAM help|1: how the checks name its --help or its man page.
doc() { if [ "$2" = help ]; then echo "$1 --help"; else echo "$1.$2"; fi; }

# says NAME FILE ERE: the flattened FILE matches ERE.
says() {
	if grep -Eq -- "$3" "$2"; then pass "$1"
	else fail "$1" "no /$3/ in $(basename "$2" .txt)"; fi
}

for p in master slave tcpcopy; do
	$B/$p --help | flat >"$T/$p.help.txt"
	groff -man -Tascii -P-cbou -rLL=5000n -rHY=0 "docs/man/$p.1" 2>/dev/null >"$T/$p.man"
	flat <"$T/$p.man" >"$T/$p.1.txt"
	[ -s "$T/$p.help.txt" ] && [ -s "$T/$p.1.txt" ] ||
		fail "$p: --help and $p.1 read" "one of them is empty"
done

# --- durability ----------------------------------------------------------
dur() { sed -n 's/.*\(After the last file .* not the renames\.\).*/\1/p' "$1"; }
hd=$(dur "$T/slave.help.txt")
check_equal "slave --help and slave.1 word what is flushed, and when, alike" \
	"$(dur "$T/slave.1.txt")" "$hd"
check "slave --help: data flushed (syncfs or fsync at close), renamed, directories flushed, in that order" \
	in_order "$hd" "before the master is told" "syncfs, once per file system" \
	"each file is fsync'ed at its close" "renamed into place" \
	"each of their directories is fsync'ed once"
commit=$(body user/libsyncdev/outfile/outset.c outfile_commit_all)
check "outfile_commit_all: syncfs, the renames, the directories' fsync, in that order" \
	in_order "$commit" "sync_data()" "renameat" "sync_dirs()"
check_output "sync_data flushes with syncfs" 'syncfs\(dirs\[i\]\.fd\)' \
	body user/libsyncdev/outfile/outset.c sync_data
check_output "sync_dirs flushes each directory with fsync" 'fsync\(dirs\[i\]\.fd\)' \
	body user/libsyncdev/outfile/outset.c sync_dirs
check_output "outfile_close fsyncs a file where syncfs is not trusted" \
	'outdir_fsync_each\(f->dir\) && fsync\(f->fd\)' body user/libsyncdev/outfile/outfile.c outfile_close
# The file systems: their magic numbers in the code, their names in the text.
body user/libsyncdev/outfile/outset.c outfile_syncfs_untrusted |
	sed -n 's/^[[:space:]]*case \([A-Z0-9_]*\):.*/\1/p' | while read -r m; do
		case $m in
		FUSE_SUPER_MAGIC) echo FUSE ;;
		V9FS_MAGIC) echo 9p ;;
		SMB2_SUPER_MAGIC | CIFS_SUPER_MAGIC) echo SMB ;;
		*) echo "$m (name it in manclaims.sh)" ;;
		esac
	done | sort -u | tr '\n' ' ' >"$T/fs.code"
echo "$hd" | sed -n 's/.* on \(.*\), whose syncfs does not reach.*/\1/p' |
	sed 's/, / /g; s/ and / /g' | tr ' ' '\n' | sort -u | tr '\n' ' ' >"$T/fs.help"
check_equal "slave --help names the file systems outset.c fsyncs file by file" \
	"$(cat "$T/fs.help")" "$(cat "$T/fs.code")"
check_output "slave --no-sync: outset.c leaves out the three flushes, not the renames" '^3$' \
	sh -c 'grep -c -e "sync_files ? sync_data()" -e "sync_files && sync_dirs()" \
		-e "return sync_files && dirs\[dir\]\.fsync_each" user/libsyncdev/outfile/outset.c'
check_output "slave: --no-sync is what turns the flushes off" 'outfile_set_sync\(!a\.opt\.no_sync\)' \
	cat user/slave/main.c
check "slave: the files are in place (xfer_recv) before the master is told (ack_answer)" \
	in_order "$(cat user/slave/main.c)" "xfer_recv(" "ack_answer("
check_output "xfer_recv commits the files before it returns" 'outfile_commit_all\(' \
	body user/libsyncdev/xfer_recv.c recv_files
says "tcpcopy.1: recv flushes and renames as the slave does" "$T/tcpcopy.1.txt" \
	'flushes it to the disk and renames it into place as the slave does \(syncfs, the rename, then its directory fsync.ed\)'
check_output "tcpcopy recv: outfile_commit, with the flushes on" 'outfile_commit\(&f\)' \
	cat user/tcpcopy/recv.c
for f in help 1; do
	says "$(doc tcpcopy $f): --tar writes with no flush to the disk" "$T/tcpcopy.$f.txt" \
		'no temporary file, no flush to the disk, no CRC'
done
check_output "tcpcopy --tar: the flushes off (files.c)" 'outfile_set_sync\(0\)' cat user/tcpcopy/files.c

# --- exit statuses -------------------------------------------------------
sed -n 's/^[[:space:]]*EXIT_\([A-Z]*\) = \([0-9]*\),.*/\2 \1/p' user/common/util.h >"$T/exits"
check_output "util.h names the exit statuses" '^[0-9]+ AUTH$' cat "$T/exits"
# meaning NAME: what the text of EXIT_NAME says (ERE), and nothing else's.
meaning() {
	case $1 in
	OK) echo '^ok|in place|confirmed' ;;
	FAIL) echo '[Ff]ailure' ;;
	USAGE) echo 'usage' ;;
	CORRUPT) echo 'corrupt|mismatch' ;;
	AUTH) echo 'key handshake' ;;
	*) echo "EXIT_$1 has no meaning in manclaims.sh" ;;
	esac
}
# exit_meanings WHERE FILE: each line of FILE ("N text") has the meaning
# of util.h's N and of no other code.
exit_meanings() {
	while read -r n text || [ -n "$n" ]; do
		name=$(sed -n "s/^$n \([A-Z]*\)$/\1/p" "$T/exits")
		if [ -z "$name" ]; then
			fail "$1: exit $n" "util.h has no exit status $n"
			continue
		fi
		bad=""
		while read -r m other; do
			hit=no
			echo "$text" | grep -Eq -- "$(meaning "$other")" && hit=yes
			if [ "$m" = "$n" ] && [ $hit = no ]; then bad="$bad, not /$(meaning "$other")/"; fi
			if [ "$m" != "$n" ] && [ $hit = yes ]; then bad="$bad, reads as EXIT_$other"; fi
		done <"$T/exits"
		if [ -z "$bad" ]; then pass "$1: exit $n means EXIT_$name"
		else fail "$1: exit $n means EXIT_$name" "'$text'$bad"; fi
	done <"$2"
}
for p in master slave tcpcopy; do
	sed 's/.*Exit status: //; s/\([;,]\) \([0-9]\) /\n\2 /g' "$T/$p.help.txt" >"$T/$p.hexit"
	exit_meanings "$p --help" "$T/$p.hexit"
	awk '/^EXIT STATUS$/ { on = 1; next } /^[A-Z]/ { on = 0 } on' "$T/$p.man" |
		sed -n 's/^ *\([0-9]\) \{2,\}\(.*\)/\1 \2/p' >"$T/$p.mexit"
	exit_meanings "$p.1" "$T/$p.mexit"
	check_equal "$p: --help and $p.1 give the same exit statuses" \
		"$(cut -d' ' -f1 "$T/$p.mexit" | tr '\n' ' ')" "$(cut -d' ' -f1 "$T/$p.hexit" | tr '\n' ' ')"
done

# --- defaults ------------------------------------------------------------
H="kernel/uapi/syncdev_abi.h user/libsyncdev/*.h user/libsyncdev/*/*.h user/tcpcopy/tcpcopy.h"
# shellcheck disable=SC2086 # H is a list of files
{
	port=$(const SYNCDEV_DEFAULT_PORT $H)
	tport=$(const TCPCOPY_DEFAULT_PORT $H)
	bufn=$(const XFER_DEFAULT_BUFFER $H)
	wait=$(const XFER_DEFAULT_WAIT_MS $H)
	hs=$(const DEADLINE_HANDSHAKE_MS $H)
	hsmax=$(const XFER_MAX_HANDSHAKE_MS $H)
	envmax=$(const DEADLINE_HANDSHAKE_MAX_MS $H)
	kmin=$(const AUTH_KEY_MIN $H)
	kmax=$(($(const AUTH_KEY_MAX $H) - 1))
	burstn=$(const XFER_DROP_BURST $H)
	every=$(($(const XFER_DROP_INTERVAL_NS $H) / 1000000000))
}
progress=$(param progress_timeout_ms)
conn=$(param connect_timeout_ms)
for v in port tport bufn wait hs hsmax kmin burstn every progress conn; do
	eval "[ \"\${$v:-0}\" -gt 0 ]" 2>/dev/null || fail "the code's value of $v" "not found"
done
buf=$(size_word "$bufn")
burst=$(number_word "$burstn")
check_equal "--handshake-timeout and \$SYNCDEV_HANDSHAKE_MS: one maximum" "$hsmax" "$envmax"
# The paths are strings, which const does not evaluate.
mpath=$(sed -n 's/^#define SYNCDEV_MASTER_PATH[[:space:]]*"\(.*\)"/\1/p' kernel/uapi/syncdev_abi.h)
spath=$(sed -n 's/^#define SYNCDEV_SLAVE_PATH[[:space:]]*"\(.*\)"/\1/p' kernel/uapi/syncdev_abi.h)

says "slave --help: the port, $port" "$T/slave.help.txt" "module's, $port by default"
says "master.1: the port, $port" "$T/master.1.txt" "port $port by default"
says "slave.1: the port, $port" "$T/slave.1.txt" "module's, $port by default"
says "tcpcopy.1: the device's port, $port" "$T/tcpcopy.1.txt" "module's, $port by default"
says "the module's port parameter: $port" kernel/main.c "\(default $port\)"
says "tcpcopy --help: its port, $tport" "$T/tcpcopy.help.txt" "listens on PORT \(default $tport\)"
says "tcpcopy.1: its port, $tport" "$T/tcpcopy.1.txt" "listens on TCP port PORT \(default $tport\)"
says "tcpcopy.1: recv's port, $tport" "$T/tcpcopy.1.txt" "connects \(port $tport unless given\)"
says "tcpcopy.1: -p, $tport" "$T/tcpcopy.1.txt" "the port to listen on \(default $tport\)"
for p in master slave tcpcopy; do
	for f in help 1; do
		w=$(doc "$p" "$f")
		says "$w: the buffer, $buf" "$T/$p.$f.txt" "\(default ${buf}[;)]"
		says "$w: the handshake, $hs ms" "$T/$p.$f.txt" "else ${hs}[ );]"
		# tcpcopy --help names no key size: --key is "as master and slave".
		[ "$w" = "tcpcopy --help" ] ||
			says "$w: the key, $kmin to $kmax bytes" "$T/$p.$f.txt" "\($kmin to $kmax bytes"
	done
	say=$T/$p.1.txt
	[ $p = tcpcopy ] || says "$p.1: the handshake at most $hsmax ms" "$say" "at most $hsmax\)"
	says "$p.1: \$SYNCDEV_HANDSHAKE_MS up to $envmax" "$say" "1 to $envmax milliseconds"
	says "$p.1: the progress timeout, the module's $progress" "$say" \
		"progress_timeout_ms, $progress unless set"
done
says "master --help: the device, $mpath" "$T/master.help.txt" "\(default $mpath\)"
says "master.1: the device, $mpath" "$T/master.1.txt" "\(default $mpath\)"
says "slave --help: the device, $spath" "$T/slave.help.txt" "\(default $spath\)"
says "slave.1: the device, $spath" "$T/slave.1.txt" "\(default $spath\)"
says "master.1: a stranger dropped after $hs ms" "$T/master.1.txt" "deadline \($hs ms unless"
says "slave --help: the wait, $wait ms" "$T/slave.help.txt" "\(default $wait;"
says "slave.1: the wait, $wait ms" "$T/slave.1.txt" "\(default $wait;"
says "slave.1: the connect timeout, the module's $conn" "$T/slave.1.txt" \
	"connect_timeout_ms, $conn unless set"
says "master.1: the drop log, $burst then one per $every s" "$T/master.1.txt" \
	"the first $burst are logged, then at most one line per $every s"

# --- the time line -------------------------------------------------------
for p in master slave; do
	says "$p --help: T from the end of the handshake" "$T/$p.help.txt" "T runs from the end of the handshake"
	says "$p.1: the time from the end of the handshake" "$T/$p.1.txt" "the time runs from the end of the handshake"
done
check "master: the clock read after xfer_accept (the handshake)" \
	in_order "$(cat user/master/main.c)" "xfer_accept(" "t0 = now_ns()"
check "slave: the clock read after xfer_connect (the handshake)" \
	in_order "$(cat user/slave/main.c)" "xfer_connect(" "t0 = now_ns()"
for f in help 1; do
	says "$(doc tcpcopy $f): with --key, T from the end of the handshake" "$T/tcpcopy.$f.txt" \
		'established \(with --key: from the end of its handshake\)'
done
for f in send recv; do
	check "tcpcopy $f: the clock read after the key handshake" \
		in_order "$(cat user/tcpcopy/$f.c)" "tcpcopy_link_auth(" "t0 = now_ns()"
done
finish
