#!/bin/sh
# The time-line criterion (check_time of scripts/grade/guest/grade-check.sh, run
# here as the guest runs it, by sh, then again by busybox sh when the host
# has it) on the output forms of public 2020 course submissions: the
# course's line with the bytes, once or per file; the starter code's
# file_size / 8, of the total or of each file; "Master: "/"Slave: "/"Slave "
# before the sentence; a second, debug time line; CR line ends.  Each pass
# notes its form in time_form.  Refused: no line, a malformed one, a wrong
# size (off by one from / 8, or times 8), and under strict_time_line
# (GRADE_STRICT_TIME=1) text around the sentence and the size / 8.
. tests/lib.sh
. scripts/grade/guest/grade-check.sh
# shellcheck disable=SC2034 # cw, side_, GRADE_STRICT_TIME, files, total, work, cname: check_time's

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cw=$tmp/case side_=master GRADE_STRICT_TIME=0
mkdir -p "$cw" "$tmp/small" "$tmp/one"
# The course's ten small files: 24,146 bytes, 3018 as total / 8, 3015 as
# the sum of each file's size / 8.
i=0
for n in 32 859 1343 1663 2042 3065 2808 4056 3659 4619; do
	i=$((i + 1))
	head -c "$n" /dev/zero >"$tmp/small/file$i"
done
head -c 4097 /dev/zero >"$tmp/one/file1"

# use DIR: the case's input files, and its data set's sizes as the
# guest's harness has them ($work/sets/SET).
use() {
	files=$(ls -d "$1"/file* | sort -V)
	total=0 cname=${1##*/}.fcntl-fcntl work=$tmp/work
	mkdir -p "$work/sets"
	: >"$work/sets/${1##*/}"
	for f in $files; do
		total=$((total + $(wc -c <"$f")))
		echo "${f##*/} $(wc -c <"$f")" >>"$work/sets/${1##*/}"
	done
}

# judge OUTPUT: check_time on a program that printed OUTPUT (printf format).
judge() {
	# shellcheck disable=SC2059 # the output is a format on purpose
	printf "$1" >"$cw/master.out"
	rtmp=$tmp/res
	: >"$rtmp"
	check_time
}

# accept NAME OUTPUT FORM: the criterion passes, noting FORM.
accept() {
	judge "$2"
	if grep -q '^reason=' "$rtmp" || ! grep -qx "time_form=$3" "$rtmp"; then
		fail "$1" "want time_form=$3 and no reason, got: $(tr '\n' '|' <"$rtmp")"
	else
		pass "$1"
	fi
}

# refuse NAME OUTPUT PATTERN: the criterion fails, the reason matching.
refuse() {
	judge "$2"
	if grep -Eq "^reason=master: $3" "$rtmp" && ! grep -q '^time_form=' "$rtmp"; then
		pass "$1"
	else
		fail "$1" "want a reason /$3/ and no time_form, got: $(tr '\n' '|' <"$rtmp")"
	fi
}

T='Transmission time: 173.347000 ms, File size:'
use "$tmp/small"
accept "the course's line with the total" "ioctl success\n$T 24146 bytes\n" strict
accept "the course's line per file" \
	"$T 32 bytes\n$T 859 bytes\n$T 1343 bytes\n$T 1663 bytes\n$T 2042 bytes\n$T 3065 bytes\n$T 2808 bytes\n$T 4056 bytes\n$T 3659 bytes\n$T 4619 bytes\n" strict
accept "CR line ends" "$T 24146 bytes\r\n" strict
accept "a lower-case first letter" "transmission time: 1 ms, file size: 24146 bytes\n" strict
accept "the starter's size / 8 of the total" "$T 3018 bytes\n" size/8
accept "the starter's size / 8 per file" \
	"$T 4 bytes\n$T 107 bytes\n$T 167 bytes\n$T 207 bytes\n$T 255 bytes\n$T 383 bytes\n$T 351 bytes\n$T 507 bytes\n$T 457 bytes\n$T 577 bytes\n" size/8
accept "the sum of each file's size / 8 on one line" "$T 3015 bytes\n" size/8
accept "'Slave: ' before the sentence" "Slave: $T 24146 bytes\n" prefixed
accept "'Slave ' (no colon) before the sentence" "Slave $T 24146 bytes\n" prefixed
accept "'master: ' with the size / 8" "master: $T 3018 bytes\n" prefixed+size/8
accept "a prefixed line, then a debug line, both size / 8" \
	"Master: $T 3018 bytes\nMaster take off waiting time: \n$T 3018 bytes\n" prefixed+size/8
use "$tmp/one"
accept "one file: its bytes" "$T 4097 bytes\n" strict
accept "one file: its size / 8" "Slave: $T 512 bytes\n" prefixed+size/8

use "$tmp/small"
refuse "no line" "ioctl success\n" "no 'Transmission time' line"
refuse "'msec' is malformed" "Transmission time: 1.2 msec, File size: 24146 bytes\n" "malformed time line: 'Transmission time: 1\.2 msec"
refuse "no size is malformed" "Slave: Transmission time: 1.2 ms\n" "malformed time line"
refuse "a wrong size" "$T 24000 bytes\n" "time line says 24000 bytes; the files hold 24146$"
refuse "one off the size / 8" "$T 3017 bytes\n" "time line says 3017 bytes"
refuse "the size times 8" "$T 193168 bytes\n" "time line says 193168 bytes"
GRADE_STRICT_TIME=1
accept "strict_time_line: the course's line passes" "$T 24146 bytes\n" strict
refuse "strict_time_line: a prefix refused" "Slave: $T 24146 bytes\n" \
	"time line not alone on its line \(strict_time_line\): 'Slave: Transmission"
refuse "strict_time_line: the size / 8 refused" "$T 3018 bytes\n" \
	"time line says 3018 bytes; the files hold 24146 \(strict_time_line: not their size / 8\)"
GRADE_STRICT_TIME=0

# The guest's shell is busybox's: the same checks there.
if [ -z "${GRADE_TIME_AGAIN:-}" ] && command -v busybox >/dev/null; then
	again=$(GRADE_TIME_AGAIN=1 busybox sh "$0" 2>&1) || failures=$((failures + 1))
	printf '%s\n' "$again" | sed 's/^\(PASS\|FAIL\) /\1 busybox sh: /'
fi
finish
