#!/bin/sh
# build/gradeclass on classes graded without a boot: each student's
# times.csv as summary.csv's time columns (after the others, in their
# order; empty without the file; a bad row left out with a message), the
# class's accelerator and time in report.md and report.html, a merge of
# shards graded under different accelerators (accepted, each shard's
# named) while another difference is still refused, and diff comparing
# the accelerator.
. tests/lib.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# student DIR NAME RESULT: a graded student of one case.
student() {
	mkdir -p "$1/$2"
	{
		echo "student,vms,case,result,reason,bytes_ok,exits_ok,time_line_ok,pages_ok,kernel_log_ok"
		echo "$2,1,4097.fcntl-fcntl,$3,,pass,pass,pass,n/a,pass"
	} >"$1/$2/results.csv"
	echo "student,kind,cases,first_case,first_message" >"$1/$2/failures.csv"
	: >"$1/$2/done"
}
# times_csv DIR NAME ROW...: the student's times.csv.
times_csv() {
	_f=$1/$2/times.csv
	shift 2
	printf '%s\n' phase,seconds "$@" >"$_f"
}
# batch DIR OPTION-LINE... STUDENT...: a batch's setup; students after --.
batch() {
	_d=$1
	shift
	mkdir -p "$_d"
	: >"$_d/grade.options"
	while [ "$1" != -- ]; do
		echo "$1" >>"$_d/grade.options"
		shift
	done
	shift
	cp scripts/grade/grade.rubric "$_d/rubric"
	printf '%s\n' "$@" >"$_d/students"
	for _s; do student "$_d" "$_s" pass; done
}
head='student,cases,passed,failed,not_run,bytes,exits,time_line,pages,kernel_log,score,result,first_failure,staging_s,boot_s,cases_1vm_s,cases_2vm_s,checks_s,total_s'

# --- one batch ----------------------------------------------------------
c=$tmp/class
batch "$c" kernel=6.1 timeout=20 shard=1/1 accel=kvm -- alice bob carol dave
times_csv "$c" alice staging,12 boot_1vm,30 cases_1vm,100 boot_2vm,41 cases_2vm,200 checks,3 total,390
times_csv "$c" carol staging,5 boot_1vm,x cases_1vm,7 total,21
rm "$c/dave/done"
times_csv "$c" dave total,50
check_exit "summarize: a bad times.csv row is no bad input (1: a student not graded)" 1 \
	build/gradeclass summarize "$c"
check_output "summarize: the bad row named on stderr" \
	"^grade: $c/carol/times.csv: boot_1vm: seconds 'x' are not a whole number up to 1000000000, left out\$" \
	build/gradeclass summarize "$c"
check_equal "summary.csv: the time columns after the others" "$(head -n 1 "$c/summary.csv")" "$head"
check_equal "summary.csv: every phase, the two boots summed" \
	"$(grep '^alice,' "$c/summary.csv" | cut -d, -f14-)" "12,71,100,200,3,390"
check_equal "summary.csv: no times.csv, empty cells" \
	"$(grep '^bob,' "$c/summary.csv" | cut -d, -f12-)" "pass,,,,,,,"
check_equal "summary.csv: the bad row left out, the others kept" \
	"$(grep '^carol,' "$c/summary.csv" | cut -d, -f14-)" "5,,7,,,21"
check_equal "summary.csv: a student not graded has no times" \
	"$(grep '^dave,' "$c/summary.csv" | cut -d, -f12,14-)" "not-graded,,,,,,"
# summary.json: summary.csv's table as JSON, cell for cell (a number as a
# number, an empty cell as null), after its format_version.
json_vs_csv() {
	python3 -c '
import csv, json, sys
doc = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
assert list(doc) == ["format_version", "students"], list(doc)
print(doc["format_version"])
for js, row in zip(doc["students"], rows, strict=True):
	assert list(js) == list(row), (list(js), list(row))
	for k, v in row.items():
		w = js[k]
		want = None if v == "" else v
		got = None if w is None else (w if isinstance(w, str) else format(w, ".1f") if isinstance(w, float) else str(w))
		assert got == want, (row["student"], k, w, v)
		assert not isinstance(w, str) or k in ("student", "result", "first_failure"), (k, w)
print(len(rows))' "$1/summary.json" "$1/summary.csv" 2>&1 | paste -sd ' '
}
check_equal "summary.json: format_version 1, each row of summary.csv, numbers as numbers, empty as null" \
	"$(json_vs_csv "$c")" "1 4"
check_output "report.md: the accelerator" '^- accelerator: kvm$' cat "$c/report.md"
check_output "report.md: the class's total and mean per student timed" \
	'^- time: 411 s for the 2 students timed, a mean of 206 s each \(2 not timed\)$' cat "$c/report.md"
check_output "report.md: the table's time columns" \
	'^\| student \| .* \| first failure \| staging_s \| boot_s \| cases_1vm_s \| cases_2vm_s \| checks_s \| total_s \|$' \
	cat "$c/report.md"
check_output "report.md: a student's times" '^\| \[alice\].* \| 12 \| 71 \| 100 \| 200 \| 3 \| 390 \|$' cat "$c/report.md"
check_output "report.md: a student without times" '^\| \[bob\].* \|  \|  \|  \|  \|  \|  \|$' cat "$c/report.md"
check_output "report.html: the accelerator" '<li>accelerator: kvm</li>' cat "$c/report.html"
check_output "report.html: the time" '<li>time: 411 s for the 2 students timed, a mean of 206 s each \(2 not timed\)</li>' \
	cat "$c/report.html"
check_equal "report.html: the time columns' headers" \
	"$(grep -o '<th>[a-z_0-9]*_s</th>' "$c/report.html" | paste -sd ' ')" \
	"<th>staging_s</th> <th>boot_s</th> <th>cases_1vm_s</th> <th>cases_2vm_s</th> <th>checks_s</th> <th>total_s</th>"
check_output "report.html: a missing time sorts below zero" \
	'<td class="num" data-v="-1"></td>' cat "$c/report.html"

e=$tmp/none
batch "$e" kernel=6.1 -- erin
build/gradeclass summarize "$e" >/dev/null 2>&1
check_output "report.md: no accelerator recorded" '^- accelerator: not recorded$' cat "$e/report.md"
check_output "report.md: no time recorded" '^- time: not recorded$' cat "$e/report.md"

s=$tmp/single
student "$tmp/src" single pass
times_csv "$tmp/src" single staging,4 boot_1vm,9 cases_1vm,20 total,33
mkdir -p "$s"
cp "$tmp/src/single/results.csv" "$tmp/src/single/times.csv" "$s/"
cp scripts/grade/grade.rubric "$s/rubric"
check_exit "summarize --single: passed" 0 build/gradeclass summarize --single "$s"
check_equal "summarize --single: the student's times" \
	"$(tail -n 1 "$s/summary.csv" | cut -d, -f14-)" "4,9,20,,,33"

# --- shards -------------------------------------------------------------
a=$tmp/shard-1 b=$tmp/shard-2 m=$tmp/merged
batch "$a" kernel=6.1 timeout=20 shard=1/2 accel=kvm -- alice
batch "$b" kernel=6.1 timeout=20 shard=2/2 accel=tcg -- bob
times_csv "$a" alice staging,1 total,10
times_csv "$b" bob staging,2 total,30
check_exit "merge: shards under different accelerators merge" 0 \
	build/gradeclass merge --out "$m" "$b" "$a"
check_output "merge: report.md names each shard's accelerator" \
	'^- accelerators: kvm \(shard 1/2\), tcg \(shard 2/2\)$' cat "$m/report.md"
check_output "merge: report.html too" \
	'<li>accelerators: kvm \(shard 1/2\), tcg \(shard 2/2\)</li>' cat "$m/report.html"
check_equal "merge: grade.options records them" \
	"$(grep '^accel' "$m/grade.options" | paste -sd ' ')" \
	"accel=mixed accel_shards=kvm (shard 1/2), tcg (shard 2/2)"
check_equal "merge: each shard's times in the summary" \
	"$(tail -n +2 "$m/summary.csv" | cut -d, -f1,14,19 | paste -sd ' ')" "alice,1,10 bob,2,30"
check_output "merge: the class's time" '^- time: 40 s for the 2 students timed, a mean of 20 s each$' \
	cat "$m/report.md"

check_equal "merge: summary.json of the merged class" "$(json_vs_csv "$m")" "1 2"
echo '{"format_version":2,"students":[]}' >"$a/summary.json"
check_output "merge: a shard's summary of another format refused, named" \
	"^grade: $a/summary.json: format_version 2, not 1: merge it with the gradeclass that graded it\$" \
	build/gradeclass merge --out "$tmp/m2" "$a" "$b"
echo 'student,cases' >"$a/summary.json"
check_output "merge: a shard's summary.json that is none refused" \
	"^grade: $a/summary.json: no format_version: not a summary gradeclass writes\$" \
	build/gradeclass merge --out "$tmp/m2" "$a" "$b"
check_exit "merge: refused with 2" 2 build/gradeclass merge --out "$tmp/m2" "$a" "$b"
rm "$a/summary.json"
check_exit "merge: a shard that stopped before its summary (no summary.json) is merged" 0 \
	build/gradeclass merge --out "$tmp/m2" "$a" "$b"

sed -i 's/^accel=.*/accel=tcg/' "$a/grade.options"
rm -rf "$m"
check_exit "merge: shards under one accelerator" 0 build/gradeclass merge --out "$m" "$a" "$b"
check_output "merge: one accelerator named once" '^- accelerator: tcg$' cat "$m/report.md"
check_equal "merge: no per-shard record" "$(grep -c '^accel_shards=' "$m/grade.options")" 0

sed -i 's/^accel=.*/accel=kvm/; s/^timeout=.*/timeout=30/' "$a/grade.options"
rm -rf "$m"
check_output "merge: another option still refused, the accelerator not named" \
	"^grade: $b was graded differently from $a: timeout: '30' vs '20'\$" \
	build/gradeclass merge --out "$m" "$a" "$b"
check_exit "merge: refused with 2" 2 build/gradeclass merge --out "$m" "$a" "$b"

# --- diff (--resume, --only) ---------------------------------------------
printf 'kernel=6.1\naccel=tcg\nshard=1/2\n' >"$tmp/o1"
printf 'kernel=6.1\naccel=kvm\nshard=2/2\n' >"$tmp/o2"
printf 'kernel=6.1\naccel=tcg\nshard=2/2\n' >"$tmp/o3"
check_exit "diff: another accelerator differs" 1 build/gradeclass diff "$tmp/o1" "$tmp/o2"
check_equal "diff: says so" "$(build/gradeclass diff "$tmp/o1" "$tmp/o2")" "accel: 'tcg' vs 'kvm'"
check_exit "diff: the same accelerator, another shard: no difference" 0 \
	build/gradeclass diff "$tmp/o1" "$tmp/o3"
finish
