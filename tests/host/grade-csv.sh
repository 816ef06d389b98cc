#!/bin/sh
# The grader's CSV files are safe to open in a spreadsheet: a student's
# results.csv and failures.csv, written by build/gradeclass student (the
# one CSV writer, user/common/csvout.c), neutralise a formula cell and
# quote commas and quotes; a class whose student's messages hold
# formulas, a bare CR and Markdown/HTML gets class CSV files with one row
# per record and a report.md whose table no message breaks.  No boot.
. tests/lib.sh
. tests/host/grade-fixture/stage.sh

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grade-csv.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# A student whose name is a formula and whose reason holds a comma, a
# quote and a formula.
d=$tmp/s
fx_stage "$d" 1vm 4097 fcntl-fcntl
sed -i 's/^name=.*/name==HYPERLINK("http:\/\/e\/")/' "$d/stage/host.conf"
sed -i 's/^status=pass/reason=master: a, "b" =1+2\nwhy.exits=@SUM(A1)\nstatus=fail/' \
	"$d/stage/results/1vm/4097.fcntl-fcntl.master.res"
fx_judge "$d"
q="'"
check_output "results.csv: the name's formula neutralised inside quotes" \
	"^\"$q=HYPERLINK\\(\"\"http://e/\"\"\\)\",1,4097\\.fcntl-fcntl," cat "$d/out/results.csv"
check_output "results.csv: a comma and quotes quoted" ',fail,"master: a, ""b"" =1\+2",' \
	cat "$d/out/results.csv"
check_output "failures.csv: a message's formula neutralised" \
	",exits,1,1vm 4097\\.fcntl-fcntl,\"$q@SUM\\(A1\\)\"\$" cat "$d/out/failures.csv"
check_equal "no CSV line starts a formula" "$(cat "$d"/out/*.csv | grep -c '^[=+@-]')" 0
check_equal "the shell has no CSV writer or Markdown escaper of its own" \
	"$(grep -lE '^(csv|md_text|md_code)\(\)' scripts/grade/grade scripts/grade/*.sh | wc -l)" 0

# A class of one student whose reasons a guest wrote.
out=$tmp/class
mkdir -p "$out/eve"
printf 'kernel=6.1\nshard=1/1\n' >"$out/grade.options"
cp scripts/grade/grade.rubric "$out/rubric"
echo eve >"$out/students"
# As the one writer writes them: a CR quoted, formulas neutralised.
{
	echo "student,vms,case,result,reason,bytes_ok,exits_ok,time_line_ok,pages_ok,kernel_log_ok"
	printf 'eve,1,4097.fcntl-fcntl,fail,"exit status 1: x\rmallory",pass,fail,pass,n/a,pass\n'
	printf 'eve,1,4097.mmap-mmap,fail,"\047=HYPERLINK(""http://e/"")",pass,fail,pass,pass,pass\n'
} >"$out/eve/results.csv"
FAILURES_HEADER="student,kind,cases,first_case,first_message"
{
	echo "$FAILURES_HEADER"
	echo "eve,exits,2,1vm 4097.fcntl-fcntl,\"'@x | <img src=x> \`y\` [l](http://e/)\""
} >"$out/eve/failures.csv"
: >"$out/eve/done"
build/gradeclass summarize "$out" >/dev/null 2>&1
check_equal "class results.csv: the CR stays in its quoted cell (two rows, no third)" \
	"$(grep -c '^eve,' "$out/results.csv"),$(grep -c '^mallory' "$out/results.csv")" "2,0"
check_output "class results.csv: the formula neutralised" "^eve,1,4097\.mmap-mmap,fail,\"'=HYPERLINK" \
	cat "$out/results.csv"
check_output "class failures.csv: '@' neutralised once" "^eve,exits,2,1vm 4097\.fcntl-fcntl,\"'@x " \
	cat "$out/failures.csv"
check_equal "class CSV files: no line starts a formula" \
	"$(cat "$out"/*.csv | tr '\r' '\n' | grep -c '^[=+@]')" 0
check_output "report.md: the message is text in its list item" \
	'^- \*\*eve\*\*: exits in 2 cases \(first 1vm 4097\.fcntl-fcntl: @x / &lt;img src=x&gt; \\`y\\` \\\[l\\\]\(http://e/\)\)$' \
	cat "$out/report.md"
check_equal "report.md: no CR" "$(tr -cd '\r' <"$out/report.md" | wc -c)" 0

# A name that would close the student's link and open another.
bad='x](javascript:alert(1)) [y'
mkdir -p "$out/$bad"
sed "s/^eve,/\"$bad\",/" "$out/eve/results.csv" >"$out/$bad/results.csv"
echo "$FAILURES_HEADER" >"$out/$bad/failures.csv"
: >"$out/$bad/done"
printf 'eve\n%s\n' "$bad" >"$out/students"
build/gradeclass summarize "$out" >/dev/null 2>&1
check_output "report.md: a name's ] and ( stay text, its link percent-encoded" \
	'^\| \[x\\\]\(javascript:alert\(1\)\) \\\[y\]\(x%5D%28javascript%3Aalert%281%29%29%20%5By/report\.md\) \|' \
	cat "$out/report.md"
finish
