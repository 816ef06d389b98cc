#!/bin/sh
# build/gradeclass student, the host's verdicts, on work directories made
# here as a boot leaves them (tests/host/grade-fixture/stage.sh; no guest
# booted): the strict result parser (a line "=x" after end=1, an unknown
# key, no end=1, an empty file, a control character, a line over 1000
# bytes: that side fails its criteria, "malformed result", the other
# cases untouched); kernel problems attributed by the host's control file
# and never by what the console says; bytes failed when the data did not
# cross syncdev.ko; verify-outputs (byte equality with the host's data,
# a link or FIFO in the share never followed or opened); guest text (ESC, BEL, C1, Markdown) as plain text in
# results.csv and report.md.
. tests/lib.sh
. tests/host/grade-fixture/stage.sh

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grade-verdicts.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
d=$tmp/a
M="fcntl-fcntl fcntl-mmap"

fx_stage "$d" 1vm 4097 "$M"
check_exit "an honest student's cases pass (exit 0)" 0 fx_judge "$d"
check_equal "every case passes" "$(cut -d , -f 9 "$d/out/results.csv" | tr '\n' ' ')" "result pass pass "
check_equal "counts" "$(cat "$d/stage/counts")" "2 2 0 0"
check_equal "the score" "$(grep '^| score |' "$d/out/report.md" | cut -d '|' -f 3)" " 100.0% (weighted by scripts/grade/grade.rubric) "

# malformed NAME TEXT: the slave of 4097.fcntl-fcntl wrote TEXT (printf
# format); it fails exits and time_line as a malformed result.
malformed() {
	fx_stage "$d" 1vm 4097 "$M"
	# shellcheck disable=SC2059 # a format on purpose
	printf "$2" >"$d/stage/results/1vm/4097.fcntl-fcntl.slave.res"
	check_exit "$1: the student fails (exit 1, no abort)" 1 fx_judge "$d"
	check_equal "$1: the case fails" "$(fx_result "$d" 1 4097.fcntl-fcntl)" fail
	check_equal "$1: exits and time_line fail" \
		"$(fx_crit "$d" 1 4097.fcntl-fcntl exits) $(fx_crit "$d" 1 4097.fcntl-fcntl time_line)" "fail fail"
	check_output "$1: the reason says malformed result" "slave: malformed result" \
		fx_row "$d" 1 4097.fcntl-fcntl
	check_equal "$1: the other case still passes" "$(fx_result "$d" 1 4097.fcntl-mmap)" pass
}
good=$(fx_res slave fcntl 4097)
malformed "'=x' after end=1" "$good\n=x\n"
malformed "'=x' before end=1" "check=exits\nrc=0\n=x\nend=1\n"
malformed "an unknown key" "check=exits\nrc=0\ntime=forged\nend=1\n"
malformed "no end=1 (incomplete)" "check=exits\nrc=0\nstatus=pass\n"
malformed "an empty file" ""
malformed "a line without '='" "check=exits\nrc 0\nend=1\n"
malformed "a control character" "check=exits\nreason=slave: a\033[2Jb\nend=1\n"
malformed "a C1 control character (U+009B)" "check=exits\nreason=slave: a\302\233b\nend=1\n"
malformed "a line over 1000 bytes" "check=exits\nreason=$(printf '%01001d' 0)\nend=1\n"
malformed "a check of an unknown criterion" "check=score\nend=1\n"
fx_stage "$d" 1vm 4097 "fcntl-mmap mmap-fcntl"
echo "=x" >"$d/stage/results/1vm/4097.fcntl-mmap.master.res"
echo "=x" >"$d/stage/results/1vm/4097.mmap-fcntl.master.res"
fx_judge "$d"
check_equal "a malformed fcntl side does not fail pages; a malformed mmap side does" \
	"$(fx_crit "$d" 1 4097.fcntl-mmap pages) $(fx_crit "$d" 1 4097.mmap-fcntl pages)" "pass fail"
check_equal "the malformed side's line in report.md says why" \
	"$(grep -c '^- master: malformed result (line 1: not key=value)$' "$d/out/report.md")" 2

# A missing result file: the guest stopped in that case (no control
# file: the first case without results is where it stopped).
fx_stage "$d" 1vm 4097 "$M"
rm "$d/stage/results/1vm/4097.fcntl-fcntl.slave.res" "$d/stage/results/1vm/4097.fcntl-mmap.master.res"
echo "guest 1vm died" >"$d/stage/results/1vm/fate"
fx_judge "$d"
check_equal "a missing result: the case the guest stopped in fails" "$(fx_result "$d" 1 4097.fcntl-fcntl)" fail
check_equal "a missing result: every criterion of it fails" \
	"$(fx_row "$d" 1 4097.fcntl-fcntl | cut -d , -f 19-)" "fail,fail,fail,fail,fail"
check_equal "a missing result: the next case is not run" "$(fx_result "$d" 1 4097.fcntl-mmap)" not-run
check_output "a missing result: why" 'not run: guest 1vm died \(in 4097\.fcntl-fcntl\)' \
	fx_row "$d" 1 4097.fcntl-mmap

# Kernel problems by the host's control file.
fx_stage "$d" 1vm "0 1" "$M"
printf '%s\n' "[ 0.5] syncdev: loaded" "[ 1.0] WARNING: CPU: 0 at first" \
	"syncdev-grade: case 1vm/1.fcntl-mmap begins" "syncdev-vm: test grade/1vm/1.fcntl-mmap" \
	"[ 2.0] BUG: in the third case" >"$d/stage/1vm.log"
w=$(grep -b 'WARNING' "$d/stage/1vm.log" | cut -d : -f 1)
b=$(grep -b 'BUG' "$d/stage/1vm.log" | cut -d : -f 1)
printf 'begin 1 %s\nend 1 %s\nbegin 2 %s\nend 2 %s\nbegin 3 %s\nend 3 %s\nbegin 4 %s\nend 4 %s\ndone %s\nignored 2\n' \
	"$w" "$w" "$((w + 1))" "$((w + 1))" "$b" "$((b + 1))" "$((b + 1))" "$((b + 1))" "$((b + 2))" \
	>"$d/stage/1vm.control"
fx_judge "$d"
check_equal "a warning at case 1's begin offset is case 1's" "$(fx_crit "$d" 1 0.fcntl-fcntl kernel_log)" fail
check_equal "the console's forged case marks select nothing" \
	"$(fx_crit "$d" 1 0.fcntl-mmap kernel_log) $(fx_crit "$d" 1 1.fcntl-mmap kernel_log)" "pass pass"
check_equal "a BUG at case 3's begin offset is case 3's" "$(fx_crit "$d" 1 1.fcntl-fcntl kernel_log)" fail
check_output "the reason quotes the line without its time stamp" 'master: kernel log: BUG: in the third case' \
	fx_row "$d" 1 1.fcntl-fcntl
rm "$d/stage/1vm.control"
fx_judge "$d"
check_equal "no control file: every problem is the first case's" \
	"$(cut -d , -f 23 "$d/out/results.csv" | tr '\n' ' ')" "kernel_log_ok fail pass pass pass "

# Through the device: device_bytes below the data set's size.
fx_stage "$d" 2vm small fcntl-fcntl
sed -i 's/^device_bytes=.*/device_bytes=0/' "$d/stage/results/2vm/small.fcntl-fcntl.master.res"
fx_judge "$d"
check_equal "device_bytes 0 with syncdev.ko: bytes fails" "$(fx_crit "$d" 2 small.fcntl-fcntl bytes)" fail
check_output "it says the data did not cross syncdev.ko" \
	"master: the data did not cross syncdev.ko \(device_bytes 0 of 24146\)" \
	fx_row "$d" 2 small.fcntl-fcntl
echo 0 >"$d/stage/strict-pages"
fx_judge "$d"
check_equal "another module (strict-pages 0): device_bytes not required" \
	"$(fx_crit "$d" 2 small.fcntl-fcntl bytes)" pass
echo 1 >"$d/stage/strict-pages"
sed -i '/^device_bytes=/d' "$d/stage/results/2vm/small.fcntl-fcntl.master.res"
fx_judge "$d"
check_equal "syncdev.ko and no device_bytes: bytes fails" "$(fx_crit "$d" 2 small.fcntl-fcntl bytes)" fail

# Several output files wrong: each named as the slave's, one after another.
fx_stage "$d" 1vm small fcntl-fcntl
printf 'wrong output file1: 32 bytes, want 32, first difference at byte 1\nmissing output file2\nand 8 more output files missing or wrong\n' \
	>"$d/stage/results/1vm/small.fcntl-fcntl.bytes"
fx_judge "$d"
check_output "each output problem is the slave's, in the verifier's order" \
	'fail,"?slave: wrong output file1: 32 bytes, want 32, first difference at byte 1; slave: missing output file2; slave: and 8 more output files missing or wrong' \
	fx_row "$d" 1 small.fcntl-fcntl

# verify-outputs: the slave's outputs against the host's data.
v=$tmp/v
mkdir -p "$v/data" "$v/share/r" "$tmp/elsewhere"
i=0
for n in 5 6 7 8 9; do
	i=$((i + 1))
	head -c "$n" /dev/urandom >"$v/data/file$i"
	echo "file$i $n $(sha256sum <"$v/data/file$i" | cut -d ' ' -f 1)"
done >"$v/want"
echo 0123456789abcdefffff >"$v/want.sum"
verify() { build/gradeclass verify-outputs "$v/share" r "$v/want" "$v/data" "$v/sum"; }
cp "$v/data"/* "$v/share/r/"
check_equal "verify: equal outputs pass" "$(verify)" pass
check_equal "verify: the outputs' checksum is the inputs'" "$(cat "$v/sum")" "0123456789abcdef 0123456789abcdef"
printf 'X' | dd of="$v/share/r/file2" bs=1 seek=3 conv=notrunc status=none
head -c 3 "$v/data/file3" >"$v/share/r/file3"
cp "$v/data/file5" "$tmp/elsewhere/f"
rm "$v/share/r/file4" "$v/share/r/file5"
ln -s "$tmp/elsewhere/f" "$v/share/r/file5"
check_equal "verify: each problem named (the first three, then a count)" "$(verify)" \
"wrong output file2: 6 bytes, want 6, first difference at byte 4
wrong output file3: 3 bytes, want 7, equal up to the shorter one
missing output file4
and 1 more output files missing or wrong"
check_equal "verify: no outputs' checksum with one missing" "$(cat "$v/sum")" "0123456789abcdef "
rm "$v/share/r/file5"
mkfifo "$v/share/r/file5"
cp "$v/data/file4" "$v/share/r/file4"
head -c 20 /dev/zero >>"$v/share/r/file1"
check_equal "verify: a FIFO is missing (never opened), a longer file is wrong" "$(verify)" \
"wrong output file1: 6 bytes, want 5, equal up to the shorter one
wrong output file2: 6 bytes, want 6, first difference at byte 4
wrong output file3: 3 bytes, want 7, equal up to the shorter one
and 1 more output files missing or wrong"
rm "$v/share/r/file5"
cp "$v/data/file5" "$v/share/r/file5"
cp "$v/data/file1" "$v/share/r/file1"
verify >/dev/null
check_equal "verify: differing outputs get their own checksum" \
	"$(cut -d ' ' -f 2 "$v/sum")" "$(cat "$v/share/r"/file[1-5] | sha256sum | cut -c 1-16)"

# Guest text in the reports.
fx_stage "$d" 1vm 4097 fcntl-fcntl
r=$d/stage/results/1vm/4097.fcntl-fcntl
printf 'x\033]0;t\007\302\205y ![i](http://e/i.png) [l](javascript:alert(1)) <b>b</b>\nexit 3\n' >"$r.master.out"
sed -i 's/^rc=0/rc=3/; s/^status=pass/reason=master: exit status 3: <b>z<\/b> `c` =1+2\nwhy.exits=master: exit status 3\nstatus=fail/' "$r.master.res"
sed -i 's/^cli_master=.*/cli_master=master {n} {files} {method} ![x](javascript:y) <i>/' "$d/stage/host.conf"
fx_judge "$d"
check_equal "report.md: no ESC, BEL or C1" "$(LC_ALL=C grep -c "$(printf '[\033\007]\|\302[\200-\237]')" "$d/out/report.md")" 0
check_equal "results.csv: no ESC, BEL or C1" "$(LC_ALL=C grep -c "$(printf '[\033\007]\|\302[\200-\237]')" "$d/out/results.csv")" 0
check_equal "report.md: no HTML tag" "$(grep -c '<[bi]>' "$d/out/report.md")" 0
check_equal "report.md: no image or link (every [ and ] escaped)" \
	"$(grep -c '\(^\|[^\\]\)[][]' "$d/out/report.md")" 0
check_output "report.md: the command line as text" 'master \{n\} \{files\} \{method\} !\\\[x\\\]\(javascript:y\) &lt;i&gt;' \
	cat "$d/out/report.md"
check_output "report.md: the program's output as text" '^  - x.*y !\\\[i\\\]\(http://e/i\.png\)' cat "$d/out/report.md"
check_equal "failures.csv: the exits row" "$(grep -c '^eve,exits,1,1vm 4097.fcntl-fcntl,master: exit status 3$' "$d/out/failures.csv")" 1
finish
