#!/bin/sh
# osbench fileaccess's syncdev options on the host, where the module is
# not loaded: argument errors (exit 2 and a message naming the problem),
# a missing device (exit 1, checked before any local measurement), the
# server's checks of its file, and the fs column of the local rows.  The
# syncdev rows themselves run in two guests (tests/vm-pair/20-fileaccess.sh).
. tests/lib.sh

OSB=build/osbench
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fileaccess_syncdev.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# usage NAME MESSAGE ARGS...: exit 2 with MESSAGE on stderr, no table.
usage() {
	name=$1; pat=$2; shift 2
	$OSB fileaccess "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc = 2 ] && grep -Eq -- "$pat" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		pass "$name"
	else
		fail "$name" "exit $rc, stderr '$(cat "$tmp/err")', stdout $(wc -c <"$tmp/out") bytes"
	fi
}

check_output "--help documents --syncdev" "--syncdev IP\[:PORT\]" \
	$OSB fileaccess --help
check_output "--help documents --syncdev-serve" \
	"fileaccess --syncdev-serve FILE \[--count N\]" $OSB fileaccess --help

usage "--syncdev needs a value" "--syncdev needs a value" --syncdev
usage "--syncdev-serve needs a value" "--syncdev-serve needs a value" \
	--syncdev-serve
usage "--syncdev rejects a host name" \
	"bad address 'localhost': 'localhost' is not an IPv4 address" \
	--syncdev localhost
usage "--syncdev rejects a short address" "'1.2.3' is not an IPv4 address" \
	--syncdev 1.2.3
usage "--syncdev rejects port 0" "port '0' is not a number 1..65535" \
	--syncdev 127.0.0.1:0
usage "--syncdev rejects port 65536" "port '65536' is not a number" \
	--syncdev 127.0.0.1:65536
usage "--count without --syncdev-serve" \
	"--count is an option of --syncdev-serve" --count 3 "$tmp"
usage "--count 0" "--count: '0' is not a count >= 1" \
	--syncdev-serve /etc/hostname --count 0
usage "--count not a number" "--count: 'many' is not a count" \
	--syncdev-serve /etc/hostname --count many
usage "--syncdev-serve with a directory" \
	"--syncdev-serve only serves its file" --syncdev-serve "$0" "$tmp"
usage "--syncdev-serve with --syncdev" \
	"--syncdev-serve only serves its file" --syncdev-serve "$0" \
	--syncdev 127.0.0.1
usage "--syncdev-serve with a size" "--syncdev-serve only serves its file" \
	--syncdev-serve "$0" --max-chunk 4K

# The server checks its file before it opens the device.
: >"$tmp/empty"
usage "--syncdev-serve an empty file" "$tmp/empty is empty: nothing to measure" \
	--syncdev-serve "$tmp/empty"
usage "--syncdev-serve a directory" "$tmp: not a regular file" \
	--syncdev-serve "$tmp"
check_exit "--syncdev-serve a missing file: exit 1" 1 \
	$OSB fileaccess --syncdev-serve "$tmp/none"
check_output "--syncdev-serve a missing file: why" \
	"cannot open $tmp/none: No such file or directory" \
	$OSB fileaccess --syncdev-serve "$tmp/none"

# Without the module, both sides fail at once with the reason; the client
# before it spends time on the local directory (no table on stdout).
if [ ! -e /dev/slave_device ]; then
	$OSB fileaccess --smoke --syncdev 127.0.0.1 "$tmp" >"$tmp/out" 2>"$tmp/err"
	check_equal "--syncdev without the module: exit 1" "$?" 1
	check_output "--syncdev without the module: why" \
		"cannot open /dev/slave_device \(is the syncdev module loaded\?\)" \
		cat "$tmp/err"
	check_equal "--syncdev without the module: no table" \
		"$(wc -c <"$tmp/out")" 0
fi
if [ ! -e /dev/master_device ]; then
	check_exit "--syncdev-serve without the module: exit 1" 1 \
		$OSB fileaccess --syncdev-serve "$0"
	check_output "--syncdev-serve without the module: why" \
		"cannot open /dev/master_device \(is the syncdev module loaded\?\)" \
		$OSB fileaccess --syncdev-serve "$0"
fi

# The fs column: the type the mount table gives for the directory.
if want=$(df --output=fstype "$tmp" 2>/dev/null | tail -n 1) && [ -n "$want" ]; then
	$OSB fileaccess --smoke --csv --max-chunk 256 "$tmp" >"$tmp/fa.csv" 2>/dev/null
	check_equal "fs column is the directory's file system ($want)" \
		"$(grep -v '^#' "$tmp/fa.csv" | sed 1d | cut -d, -f2 | sort -u)" "$want"
fi
finish
