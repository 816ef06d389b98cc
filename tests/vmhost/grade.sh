#!/bin/sh
# scripts/grade/grade, for real (boots guests): our own programs in one VM and
# two, the course-style clients of tests/tools in one VM and two, and
# beside them a batch of "students" that go wrong on purpose, each of
# which must be reported with the right reason, and a good student after
# a guest that panicked.  About 10 guest boots (the two-VM ones boot two
# at once).
. tests/lib.sh

tmp=$(mktemp -d)
# Run as root, the grader's QEMU runs as its own user, which must reach
# the outputs.
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT

# The batch of students that go wrong mostly waits (for a hang's time
# limit, a panicked guest): it runs beside the other two grades, which
# boot their guests meanwhile.  Each grade has its own output and shared
# directory; scripts/vm/vm-build packs the image under a lock.
sub=$tmp/submissions
mkdir -p "$sub/a-broken" "$sub/b-nobuild" "$sub/c-panic" "$sub/d-good"
for p in master slave; do
	cat "tests/grade/broken/$p" "build/$p" >"$sub/a-broken/$p"
	chmod +x "$sub/a-broken/$p"
done
for s in b-nobuild c-panic d-good; do
	cp build/master build/slave "$sub/$s/"
done
cp -r tests/grade/broken-module "$sub/b-nobuild/module"
cp -r tests/grade/panic-module "$sub/c-panic/module"
scripts/grade/grade --batch "$sub" --out "$tmp/batch" --vms 1 --data small,4097 \
	--methods fcntl-fcntl,mmap-fcntl,mmap-mmap --timeout 20 --jobs 2 >"$tmp/batch.log" 2>&1 &
batch=$!

# grep_csv NAME FILE CASE VMS PATTERN: the row of CASE (VMS: 1 or 2) in a
# results.csv matches the ERE PATTERN.
grep_csv() {
	row=$(grep -E "^[^,]*,$4,$3," "$2")
	if [ -z "$row" ]; then
		fail "$1" "no row for case $3 ($4 VM) in $2"
	elif echo "$row" | grep -Eq -- "$5"; then
		pass "$1"
	else
		fail "$1" "row '$row' does not match /$5/"
	fi
}

# --- the course's programs on the newer kernels -----------------------
# The course-style clients whose outcome depended on the kernel (a slave
# that takes every read() for 512 bytes, a page dump asked for before the
# first legacy call) and the time-line forms the course's starter code and
# students printed, graded on 6.12 and the newest kernel as the course's
# module would have graded them: every case passes.
newer=$tmp/newer
for c in course_read512 course_dumpfirst course_div8 course_prefixed; do
	mkdir -p "$newer/$c"
	cp "build/tests/tools/$c" "$newer/$c/master"
	cp "build/tests/tools/$c" "$newer/$c/slave"
done
for k in 6.12 newest; do
	kout=$tmp/k-$k
	scripts/grade/grade --batch "$newer" --kernel "$k" --vms 1 --data small,1M+1 \
		--methods fcntl-fcntl,mmap-mmap --out "$kout" >"$kout.log" 2>&1
	check_equal "grade --kernel $k of the course clients exits 1 (one never dumps a page)" "$?" 1
	release=$(sed 's/[.+]/\\&/g' "$(scripts/vm/vm-kernel --print-path "$k")/release")
	check_output "grade --kernel $k: the report names the guest kernel" \
		"^\\| guest kernel \\| $release " cat "$kout/course_div8/report.md"
	for c in course_dumpfirst course_div8 course_prefixed; do
		check_output "$k: $c: all 4 cases passed" "^$c,4,4,0,0,100,100,100,100,100,100.0,pass," \
			cat "$kout/summary.csv"
	done
	check_output "$k: course_read512: every byte, no page line (90.0)" \
		'^course_read512,4,2,2,0,100,100,100,0,100,90.0,fail,' cat "$kout/summary.csv"
done

# --- our programs, one VM and two -------------------------------------
gout=$tmp/ours
scripts/grade/grade --data small,0,4097 --out "$gout" >"$tmp/ours.log" 2>&1
check_equal "grade of our programs exits 0" "$?" 0
check_equal "results.csv: 3 data sets x 4 method pairs x 2 = 24 rows" \
	"$(tail -n +2 "$gout/results.csv" | wc -l)" 24
check_equal "every case of ours passed" \
	"$(tail -n +2 "$gout/results.csv" | grep -vc ',pass,')" 0
for vms in 1 2; do
	for c in small.fcntl-fcntl small.mmap-mmap 0.fcntl-mmap 4097.mmap-fcntl 4097.mmap-mmap; do
		grep_csv "$vms VM, $c: both time lines and an output checksum" "$gout/results.csv" \
			"$c" "$vms" ',pass,,0,0,[0-9.]+,[0-9.]+,[0-9.]+,[0-9.]+,([0-9a-f]{16}),\1,pass,pass,pass,(pass|n/a),pass$'
	done
done
check_equal "report.md: a section per case" "$(grep -c '^### [12]vm ' "$gout/report.md")" 24
check_output "report.md: the time lines, as text" \
	'^- master: exit 0, [0-9.]+ s \(guest-reported\); time line: Transmission time: [0-9.]+ ms, File size: 24146 bytes$' \
	cat "$gout/report.md"
check_output "report.md: kernel log excerpts with page descriptors" \
	'syncdev: master#[0-9]+: page vaddr=' cat "$gout/report.md"
check_output "report.md: excerpts from both guests in the 2-VM cases" \
	'kernel log during the case \(guest-reported, [0-9]+ lines, slave guest\)' cat "$gout/report.md"

# --- the course-style clients, one VM and two ---------------------------
# tests/tools/course_*: a client of each course style; each is both
# master and slave (by its name).
course=$tmp/course
clients="course_2page course_128page course_page course_early course_dumpfirst
	course_div8 course_prefixed"
for c in $clients course_read512; do
	mkdir -p "$course/$c"
	cp "build/tests/tools/$c" "$course/$c/master"
	cp "build/tests/tools/$c" "$course/$c/slave"
done
scripts/grade/grade --batch "$course" --out "$tmp/course-out" --data small,1M+1 \
	>"$tmp/course.log" 2>&1
check_equal "grade of the course-style clients exits 1 (one never dumps a page)" "$?" 1
for c in $clients; do
	check_output "$c: all 16 cases passed (one VM and two)" "^$c,16,16,0,0,100,100,100,100,100,100.0,pass," \
		cat "$tmp/course-out/summary.csv"
done
# course_read512 moves every byte (each read() is full) but, like the
# starter code, never asks for a page descriptor: the 12 cases with an mmap
# side fail pages, and nothing else.
check_output "course_read512: every byte, no page line (85.0)" \
	'^course_read512,16,4,12,0,100,100,100,0,100,85.0,fail,' cat "$tmp/course-out/summary.csv"
# The course's starter code printed the size / 8, and many students put
# "Master: " or "Slave: " before the sentence: every byte arrived, so
# every case passes, and the report says which form it took.
check_output "course_div8: the report notes the size/8 form" \
	'^- master: exit 0, [0-9.]+ s \(guest-reported\); time line: Transmission time: [0-9.]+ ms, File size: 3018 bytes \(accepted: size/8 form\)$' \
	cat "$tmp/course-out/course_div8/report.md"
check_output "course_prefixed: the report notes the prefixed form" \
	'^- slave: exit 0, [0-9.]+ s \(guest-reported\); time line: Slave: Transmission time: [0-9.]+ ms, File size: 24146 bytes \(accepted: prefixed form\)$' \
	cat "$tmp/course-out/course_prefixed/report.md"

# --- a batch of students that go wrong (started above) -----------------
gout=$tmp/batch
wait $batch
check_equal "a batch with failures exits 1" "$?" 1
check_output "a progress line per student on stderr (--jobs 2)" \
	'^grade: \[[1-4]/4\] d-good: 6/6 cases passed' cat "$tmp/batch.log"
r=$gout/a-broken/results.csv
grep_csv "wrong bytes are a wrong output" "$r" small.fcntl-fcntl 1 \
	',fail,"?slave: wrong output file1: 32 bytes, want 32, first difference at byte 1; .*; slave: and 7 more output files missing or wrong'
grep_csv "a malformed time line is reported" "$r" small.mmap-fcntl 1 \
	",fail,\"?master: malformed time line: 'Transmission time: [0-9.]+ msec"
grep_csv "a hang is reported as such" "$r" small.mmap-mmap 1 \
	'slave: hang: did not finish within 20 s'
grep_csv "a missing time line is reported" "$r" 4097.fcntl-fcntl 1 \
	"master: no 'Transmission time' line"
grep_csv "missing page descriptors in mmap mode are reported" "$r" 4097.mmap-fcntl 1 \
	'master: no page-descriptor line in the kernel log'
grep_csv "no page dump, all else right: only the pages criterion fails" "$r" 4097.mmap-fcntl 1 \
	',pass,pass,pass,fail,pass$'
grep_csv "a crash is reported with its signal" "$r" 4097.mmap-mmap 1 \
	'slave: crash: killed by signal 11 \(SIGSEGV\)'
grep_csv "the master left waiting by a crashed slave is stopped" "$r" 4097.mmap-mmap 1 \
	'master: the slave failed; the master was stopped 2 s later'
grep_csv "a module that does not build is a result" "$gout/b-nobuild/results.csv" \
	small.fcntl-fcntl 1 ',fail,"?module build failed.*undeclared_variable'
check_equal "no guest was booted for it" "$(ls "$gout/work/b-nobuild"/1vm*.log 2>/dev/null)" ""
grep_csv "a guest panic is reported" "$gout/c-panic/results.csv" small.fcntl-fcntl 1 \
	'Kernel panic - not syncing: panicky: deliberate panic'
grep_csv "the student after a panic gets a fresh guest" "$gout/d-good/results.csv" \
	4097.mmap-mmap 1 ',pass,'
check_equal "summary.csv: a header and one row per student" "$(wc -l <"$gout/summary.csv")" 5
check_output "summary.csv: the good student passed" '^d-good,6,6,0,0,100,100,100,100,100,100.0,pass,(,[0-9]*){6}$' cat "$gout/summary.csv"
check_output "summary.csv: the broken one failed all six" '^a-broken,6,0,6,0,[0-9]*,[0-9]*,[0-9]*,[0-9]*,[0-9]*,[0-9.]+,fail,' cat "$gout/summary.csv"
check_output "report.md: the summary table links each student" \
	'^\| \[c-panic\]\(c-panic/report.md\) \| 0\.0 \| fail \| 0/6 \|' cat "$gout/report.md"
check_equal "results.csv: every student's rows" "$(tail -n +2 "$gout/results.csv" | wc -l)" 24
finish
