#!/bin/sh
# scripts/grade/grade on a class, for real (boots guests, one case pair each):
# two shards graded side by side (each with --jobs 2), every year's command
# line (a preset in the submission's grade.cli, and a student without it),
# the merge of the real shard outputs and its refusals (other options,
# another kernel and module, a shard twice, a shard missing), the class
# report in headless Chromium, then --only (serial) giving the verdicts
# the parallel run gave, and --resume grading only what was not done;
# last, a one-file command line on the ten-file data set (a run per
# file).  First, without a boot, build/gradeclass on a class whose names and
# messages try to inject markup into report.html.
. tests/lib.sh

tmp=$(mktemp -d)
# Run as root, the grader's QEMU runs as its own user, which must reach
# the outputs.
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
sub=$tmp/submissions
# Shards by cksum of the name: 1/2 holds b-opts, d-single-ok, nobuild;
# 2/2 holds good, single.
mkdir -p "$sub/good" "$sub/b-opts" "$sub/single" "$sub/d-single-ok" "$sub/nobuild" "$tmp/nb/nobuild"
cp build/master build/slave "$sub/good/"
# with_client FIXTURE OUT: a fixture script and, after it, the course client
# it runs (a program under test reaches nothing else of the guest's).
with_client() {
	cat "$1" build/tests/tools/course_2page >"$2" && chmod +x "$2"
}
for p in master slave; do
	with_client "tests/grade/cli-options/$p" "$sub/b-opts/$p"
	with_client "tests/grade/cli-single/$p" "$sub/single/$p"
	with_client "tests/grade/cli-single/$p" "$sub/d-single-ok/$p"
done
cp tests/grade/cli-options/grade.cli "$sub/b-opts/"
echo "preset single-file" >"$sub/d-single-ok/grade.cli"
cp build/master build/slave "$sub/nobuild/"
cp -r tests/grade/broken-module "$sub/nobuild/module"
cp -r "$sub/nobuild/." "$tmp/nb/nobuild/"
set -- --vms 1 --data 4097 --methods fcntl-fcntl,mmap-mmap --timeout 20

ud=$(mktemp -d -p "$tmp")
chrome() {
	chromium --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$ud" "$@" 2>>"$tmp/chromium.log"
}

# --- the class reports, no boot ------------------------------------------
# hostile_student DIR NAME REASON: a graded student of one failed case.
hostile_student() {
	_n=$(printf '%s' "$2" | sed 's/"/""/g') _r=$(printf '%s' "$3" | sed 's/"/""/g')
	mkdir -p "$1/$2"
	{
		echo "student,vms,case,result,reason,bytes_ok,exits_ok,time_line_ok,pages_ok,kernel_log_ok"
		printf '"%s",1,4097.fcntl-fcntl,fail,"%s",pass,fail,pass,n/a,pass\n' "$_n" "$_r"
	} >"$1/$2/results.csv"
	{
		echo "student,kind,cases,first_case,first_message"
		printf '"%s",exits,1,1vm 4097.fcntl-fcntl,"%s"\n' "$_n" "$_r"
	} >"$1/$2/failures.csv"
	: >"$1/$2/done"
}
h=$tmp/hostile
mkdir -p "$h"
printf 'kernel=<b>k</b>\nshard=1/1\n' >"$h/grade.options"
cp scripts/grade/grade.rubric "$h/rubric"
hostile_student "$h" '<script>document.title="owned"<\script>' '<img src=x onerror="document.title=1">'
hostile_student "$h" "javascript:alert('x')" 'a "quoted", <i>reason</i> & more'
printf '%s\n' '<script>document.title="owned"<\script>' "javascript:alert('x')" >"$h/students"
check_exit "gradeclass --help exits 0" 0 build/gradeclass --help
check_exit "gradeclass without a command is a usage error" 2 build/gradeclass
check_exit "gradeclass summarize of a class with a failed case exits 1" 1 build/gradeclass summarize "$h"
check_equal "the score of a case that failed only exits: 50+20 of 80" \
	"$(cut -d, -f11 "$h/summary.csv" | tail -n +2 | paste -sd ' ')" "87.5 87.5"
check_equal "report.html holds no tag from a name or a message" \
	"$(grep -c -e '<script>document' -e '<img' -e '<i>' -e '<b>k' "$h/report.html")" 0
check_output "report.html escapes a name" '&lt;script&gt;document.title=&quot;owned&quot;&lt;\\script&gt;' \
	cat "$h/report.html"
check_output "a link to a student names no scheme" 'href="\./javascript%3Aalert%28%27x%27%29/report\.md"' \
	cat "$h/report.html"
chrome --dump-dom "file://$h/report.html" >"$tmp/hdom.html"
check_output "in a browser, the page finds its two rows" 'data-rows="2">2 rows for 2 students: consistent' \
	cat "$tmp/hdom.html"
check_equal "in a browser, no script or image of a student ran" \
	"$(grep -c -e '<title>owned' -e '<title>1' -e '<img' "$tmp/hdom.html")" 0

# --- the command line, no boot ------------------------------------------
check_exit "--shard 3/2 is a usage error" 2 scripts/grade/grade --batch "$sub" --shard 3/2
check_output "--cli without files is refused, saying why" "no \{file\}, \{files\} or \{prefix\}" \
	scripts/grade/grade --batch "$sub" --cli 'master {n} {method}'
check_output "--only names a student of the batch" "--only nobody: no such student" \
	scripts/grade/grade --batch "$sub" --out "$tmp/x" --only nobody "$@"
printf 'bytes 50 required\nexit 10 optional\n' >"$tmp/bad.rubric"
check_output "a rubric naming an unknown criterion is refused, with its line" \
	"bad\.rubric:2: want 'CRITERION WEIGHT required\|optional'" \
	scripts/grade/grade --batch "$sub" --rubric "$tmp/bad.rubric"
check_output "--help states the default of --jobs" "--jobs N .*default: the host's" \
	scripts/grade/grade --help

# --- two shards side by side --------------------------------------------
scripts/grade/grade --batch "$sub" --out "$tmp/s1" --shard 1/2 --jobs 2 "$@" >"$tmp/s1.log" 2>&1 &
s1=$!
scripts/grade/grade --batch "$sub" --out "$tmp/s2" --shard 2/2 --jobs 2 "$@" >"$tmp/s2.log" 2>&1 &
s2=$!
# Shards that must not merge with them, made without a boot (a module that
# does not build): another time limit, another kernel.
scripts/grade/grade --batch "$tmp/nb" --out "$tmp/t30" --shard 1/2 "$@" --timeout 30 >"$tmp/t30.log" 2>&1
scripts/grade/grade --batch "$tmp/nb" --out "$tmp/k612" --shard 1/2 "$@" --kernel 6.12 >"$tmp/k612.log" 2>&1
wait $s1
check_equal "shard 1/2 exits 1 (a student failed)" "$?" 1
wait $s2
check_equal "shard 2/2 exits 1 (a student failed)" "$?" 1
check_equal "shard 1/2 graded its three students" \
	"$(cut -d, -f1 "$tmp/s1/summary.csv" | tail -n +2 | paste -sd ' ')" "b-opts d-single-ok nobuild"
check_equal "shard 2/2 graded its two" "$(cut -d, -f1 "$tmp/s2/summary.csv" | tail -n +2 | paste -sd ' ')" "good single"
check_output "a progress line per student with --jobs 2" '^grade: \[[0-9]/3\] d-single-ok: 2/2 cases passed' \
	cat "$tmp/s1.log"
check_output "a shard records the kernel" '^kernel=6\.1\.' cat "$tmp/s1/grade.options"

# --- merge and its refusals ---------------------------------------------
m=$tmp/merged
scripts/grade/grade --merge "$tmp/s2" "$tmp/s1" --out "$m" >"$tmp/merge.log" 2>&1
check_equal "the merge exits 1 (a student failed)" "$?" 1
check_equal "summary.csv: a header and the five students" "$(wc -l <"$m/summary.csv")" 6
check_output "a correct student: every criterion and the score at 100" \
	'^good,2,2,0,0,100,100,100,100,100,100\.0,pass,(,[0-9]*){6}$' cat "$m/summary.csv"
check_output "the options command line from grade.cli passes" \
	'^b-opts,2,2,0,0,100,100,100,100,100,100\.0,pass,(,[0-9]*){6}$' cat "$m/summary.csv"
check_output "the single-file command line from grade.cli passes" \
	'^d-single-ok,2,2,0,0,100,100,100,100,100,100\.0,pass,(,[0-9]*){6}$' cat "$m/summary.csv"
check_output "graded with the 2020 command line, a single-file program fails on exits and bytes" \
	'^single,2,0,2,0,0,0,0,0,100,0\.0,fail,' cat "$m/summary.csv"
check_output "failures by kind: the first message of the exits kind" \
	'^single,exits,2,1vm 4097\.fcntl-fcntl,master: exit status 2: usage: master FILE' cat "$m/failures.csv"
check_output "a module that does not build fails every criterion" \
	'^nobuild,2,0,2,0,0,0,0,0,0,0\.0,fail,"?1vm 4097\.fcntl-fcntl: module build failed' cat "$m/summary.csv"
check_output "totals per case across the class" '^1,4097\.mmap-mmap,5,3,2,0,2,2,2,2,1$' cat "$m/cases.csv"
check_output "report.md: the class table with the score" \
	'^\| \[single\]\(single/report.md\) \| 0\.0 \| fail \| 0/2 \|' cat "$m/report.md"
check_output "a student's own report.md gives their score" '^\| score \| 100\.0% ' cat "$m/good/report.md"
check_output "a failing student's report.md gives theirs" '^\| score \| 0\.0% ' cat "$m/single/report.md"
check_output "merging other options is refused, naming them" \
	"graded differently.*timeout: '20' vs '30'" scripts/grade/grade --merge "$tmp/s2" "$tmp/t30" --out "$tmp/x"
check_output "merging another kernel is refused, naming it and the module" \
	"kernel: '6\.1\.[^']*' vs '6\.12\..*module: " scripts/grade/grade --merge "$tmp/s2" "$tmp/k612" --out "$tmp/x"
cp -r "$tmp/s1" "$tmp/s1m"
sed -i 's/^module=.*/module=0000/' "$tmp/s1m/grade.options"
check_output "merging another module is refused" "module: 'syncdev sources [0-9a-f]{16}, 6\.1\.[^']*' vs '0000'" \
	scripts/grade/grade --merge "$tmp/s2" "$tmp/s1m" --out "$tmp/x"
check_output "a shard given twice is refused" "both shard 1/2" \
	scripts/grade/grade --merge "$tmp/s1" "$tmp/s2" "$tmp/s1" --out "$tmp/x"
check_output "a missing shard is refused" "shards missing: 2/2" \
	scripts/grade/grade --merge "$tmp/s1" --out "$tmp/x"
check_exit "a refused merge exits 2" 2 scripts/grade/grade --merge "$tmp/s1" --out "$tmp/x"

# --- the class report in a real browser ---------------------------------
html=$m/report.html
check_equal "report.html uses no external asset" "$(grep -Eic '(src|href)="(https?:)?//' "$html")" 0
chrome --dump-dom "file://$html" >"$tmp/dom.html"
check_output "the page finds one row per student" 'id="check" data-rows="5">5 rows for 5 students: consistent' \
	cat "$tmp/dom.html"
check_equal "the rows in the page are the students" \
	"$(grep -o '<tr class="[a-z-]*"><td data-v="[^"]*"' "$tmp/dom.html" | sed 's/.*data-v="//; s/"$//' | sort | paste -sd ' ')" \
	"b-opts d-single-ok good nobuild single"
check_equal "the page sorts failing students first" \
	"$(grep -o '<tr class="[a-z-]*">' "$tmp/dom.html" | head -n 5 | sed 's/.*class="//; s/">//' | paste -sd ' ')" \
	"fail fail pass pass pass"
check_output "the page groups each student's failures by kind" \
	'data-student="single".*<span class="kind">exits</span> in 2 cases' tr -d '\n' <"$tmp/dom.html"
(cd "$tmp" && chrome --screenshot="$tmp/report.png" --window-size=1280,900 "file://$html")
check_output "a screenshot of the page" 'PNG image data, 1280 x 900' file "$tmp/report.png"

# --- --only (serial) and --resume ---------------------------------------
# verdicts FILE: a results.csv without the measured times.
verdicts() { cut -d, -f1-12,19- "$1"; }
verdicts "$tmp/s1/b-opts/results.csv" >"$tmp/b-opts.parallel"
verdicts "$tmp/s2/single/results.csv" >"$tmp/single.first"
rm "$tmp/s2/single/done"        # as if the batch had stopped in its grade
scripts/grade/grade --batch "$sub" --out "$tmp/s1" --shard 1/2 --only b-opts "$@" >"$tmp/only.log" 2>&1 &
only=$!
scripts/grade/grade --batch "$sub" --out "$tmp/s2" --shard 2/2 --resume "$@" >"$tmp/resume.log" 2>&1
check_equal "--resume exits 1 (a student failed)" "$?" 1
check_output "--resume does not grade a finished student again" '^grade: good: graded already$' \
	cat "$tmp/resume.log"
check_equal "--resume grades the unfinished one" "$(grep -c 'single: 0/2 cases passed' "$tmp/resume.log")" 1
check_equal "its verdicts are those of its first grade" "$(verdicts "$tmp/s2/single/results.csv")" \
	"$(cat "$tmp/single.first")"
wait $only
check_equal "--only exits 1 (the shard has a failed student)" "$?" 1
check_equal "--only grades that student alone" "$(grep -c '^grade: \[' "$tmp/only.log")" 1
check_equal "serial verdicts equal those of --jobs 2" "$(verdicts "$tmp/s1/b-opts/results.csv")" \
	"$(cat "$tmp/b-opts.parallel")"
check_equal "the summary keeps its three students" "$(tail -n +2 "$tmp/s1/summary.csv" | wc -l)" 3

# --- a one-file command line on the ten-file data set -------------------
sf=$tmp/single-small
scripts/grade/grade --master "$sub/single/master" --slave "$sub/single/slave" \
	--cli single-file --vms 1 --data small --methods mmap-fcntl --timeout 20 --out "$sf" >"$tmp/sf.log" 2>&1
check_equal "a single-file program graded on the ten files passes" "$?" 0
check_output "each criterion of its case passes, the ten files of the data set" \
	'^,1,small\.mmap-fcntl,small,10,24146,mmap,fcntl,pass,,0,0,.*,pass,pass,pass,pass,pass$' cat "$sf/results.csv"
check_equal "one run, and one time line, per file" \
	"$(grep -c 'Transmission time' "$sf/work/results/1vm/small.mmap-fcntl.master.out")" 10
check_output "its report gives the score" '^\| score \| 100\.0% ' cat "$sf/report.md"

# --- a {prefix} command line (./master N PREFIX method) from grade.cli ----
mkdir -p "$tmp/pclass/e-prefix"
for p in master slave; do with_client "tests/grade/cli-prefix/$p" "$tmp/pclass/e-prefix/$p"; done
cp tests/grade/cli-prefix/grade.cli "$tmp/pclass/e-prefix/"
scripts/grade/grade --batch "$tmp/pclass" --vms 1 --data small --methods mmap-fcntl --timeout 20 \
	--out "$tmp/prefix" >"$tmp/prefix.log" 2>&1
check_equal "a {prefix} program (grade.cli, the key alone and doubled) passes" "$?" 0
check_output "its ten files arrive by the data set's names" \
	'^e-prefix,1,small\.mmap-fcntl,small,10,24146,mmap,fcntl,pass,' cat "$tmp/prefix/e-prefix/results.csv"
finish
