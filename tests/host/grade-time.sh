#!/bin/sh
# The time-line criterion, judged on the host by build/gradeclass student
# from what the master printed (results/VMS/CASE.master.out), on the
# output forms of public course submissions: the course's line with the
# bytes, once or per file; a per-file line plus a "Total transmission
# time" summary, or a summary alone; other lines ignored; the starter
# code's file_size / 8, of the total or of each file, and of the last
# file of a one-file command line (--cli single-file); "Master: "/"Slave "
# before the sentence; CR line ends.  Each pass shows its form in
# report.md.  Refused: no line, only a malformed one, a wrong size (off
# by one from / 8, or times 8), and under strict_time_line text around
# the sentence and the size / 8.  No guest is booted.
. tests/lib.sh
. tests/host/grade-fixture/stage.sh

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grade-time.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
d=$tmp/t
set=small case=small.fcntl-fcntl

# judge OUTPUT: the master of the one case printed OUTPUT (printf format).
judge() {
	fx_stage "$d" 1vm "$set" fcntl-fcntl
	# shellcheck disable=SC2059 # the output is a format on purpose
	printf "$1" >"$d/stage/results/1vm/$case.master.out"
	fx_judge "$d"
}

# accept NAME OUTPUT FORM: time_line passes, in FORM.
accept() {
	judge "$2"
	got=$(fx_crit "$d" 1 "$case" time_line)
	form=$(sed -n 's/^- master: .*(accepted: \(.*\) form)$/\1/p' "$d/out/report.md")
	if [ "$got" = pass ] && [ "${form:-strict}" = "$3" ]; then
		pass "$1"
	else
		fail "$1" "want pass in form $3, got $got ${form:-strict}: $(fx_row "$d" 1 "$case")"
	fi
}

# refuse NAME OUTPUT PATTERN: time_line fails, the reason matching.
refuse() {
	judge "$2"
	got=$(fx_crit "$d" 1 "$case" time_line)
	if [ "$got" = fail ] && fx_row "$d" 1 "$case" | grep -Eq "master: $3"; then
		pass "$1"
	else
		fail "$1" "want fail /$3/, got: $(fx_row "$d" 1 "$case")"
	fi
}

T='Transmission time: 173.347000 ms, File size:'
PER="$T 32 bytes\n$T 859 bytes\n$T 1343 bytes\n$T 1663 bytes\n$T 2042 bytes\n$T 3065 bytes\n$T 2808 bytes\n$T 4056 bytes\n$T 3659 bytes\n$T 4619 bytes\n"
accept "the course's line with the total" "ioctl success\n$T 24146 bytes\n" strict
accept "the course's line per file" "$PER" strict
accept "per-file lines and a total summary" \
	"${PER}Total transmission time: 1734.2 ms, Total file size: 24146 bytes\n" strict
accept "a total summary alone" "Total transmission time: 1734.2 ms, Total file size: 24146 bytes\n" prefixed
accept "an extra line that mentions the time is ignored" \
	"$T 24146 bytes\nTransmission time of the last chunk: 3 us\n" strict
accept "CR line ends" "$T 24146 bytes\r\n" strict
accept "a lower-case first letter" "transmission time: 1 ms, file size: 24146 bytes\n" strict
accept "the starter's size / 8 of the total" "$T 3018 bytes\n" size/8
accept "the starter's size / 8 per file" \
	"$T 4 bytes\n$T 107 bytes\n$T 167 bytes\n$T 207 bytes\n$T 255 bytes\n$T 383 bytes\n$T 351 bytes\n$T 507 bytes\n$T 457 bytes\n$T 577 bytes\n" size/8
accept "the sum of each file's size / 8 on one line" "$T 3015 bytes\n" size/8
accept "'Slave: ' before the sentence" "Slave: $T 24146 bytes\n" prefixed
accept "'Slave ' (no colon) before the sentence" "Slave $T 24146 bytes\n" prefixed
accept "'master: ' with the size / 8" "master: $T 3018 bytes\n" prefixed+size/8
refuse "2020 command line: the last file's size / 8 alone is not the total" \
	"Master: $T 577 bytes\n" "time line says 577 bytes; the files hold 24146"
FX_CLI='master {file} {method}'
export FX_CLI
accept "single-file: the last file's size / 8" \
	"Master: Transmission time: 0.3 ms, File size: 577 bytes\n" prefixed+size/8
accept "single-file: the last file's bytes" "$T 4619 bytes\n" strict
unset FX_CLI
set=4097 case=4097.fcntl-fcntl
accept "one file: its bytes" "$T 4097 bytes\n" strict
accept "one file: its size / 8" "Slave: $T 512 bytes\n" prefixed+size/8

set=small case=small.fcntl-fcntl
refuse "no line" "ioctl success\n" "no 'Transmission time' line"
refuse "no output at all" "" "no 'Transmission time' line"
refuse "'msec' is malformed" "Transmission time: 1.2 msec, File size: 24146 bytes\n" \
	"malformed time line: 'Transmission time: 1\.2 msec"
refuse "no size is malformed" "Slave: Transmission time: 1.2 ms\n" "malformed time line"
refuse "a wrong size" "$T 24000 bytes\n" "time line says 24000 bytes; the files hold 24146"
refuse "one off the size / 8" "$T 3017 bytes\n" "time line says 3017 bytes"
refuse "the size times 8" "$T 193168 bytes\n" "time line says 193168 bytes"
refuse "a wrong total summary" "Total transmission time: 1 ms, Total file size: 24000 bytes\n" \
	"no course time line with the files' size"
FX_RUBRIC=$tmp/strict.rubric
export FX_RUBRIC
{ grep -v '^strict_time_line' scripts/grade/grade.rubric; echo "strict_time_line yes"; } >"$FX_RUBRIC"
accept "strict_time_line: the course's line passes" "$T 24146 bytes\n" strict
refuse "strict_time_line: a prefix refused" "Slave: $T 24146 bytes\n" \
	"time line not alone on its line \(strict_time_line\): 'Slave: Transmission"
refuse "strict_time_line: the size / 8 refused" "$T 3018 bytes\n" \
	"time line says 3018 bytes; the files hold 24146 \(strict_time_line: not their size / 8\)"
refuse "strict_time_line: a total summary alone refused" \
	"Total transmission time: 1 ms, Total file size: 24146 bytes\n" "no course time line"
finish
