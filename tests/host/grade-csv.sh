#!/bin/bash
# The grader's CSV files are safe to open in a spreadsheet: the shell's
# writer (csv in scripts/grade/grade-report.sh) neutralises each formula
# cell and quotes every CR and LF, byte for byte as user/common/csvout.c
# does; a class whose student's messages hold formulas, a bare CR and
# Markdown/HTML gets class CSV files with one row per record and a
# report.md whose table no message breaks.  No boot.
# tests/run starts it with sh; the writer under test is bash's.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. tests/lib.sh
# shellcheck source=scripts/grade/grade-report.sh
. scripts/grade/grade-report.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# cell NAME VALUE WANT: csv VALUE writes WANT and a line end.
cell() {
	check_equal "csv: $1" "$(csv "$2" | od -An -c)" "$(printf '%s\n' "$3" | od -An -c)"
}
cell "'=' gets a quote, inside quotes" '=HYPERLINK("http://e/")' "\"'=HYPERLINK(\"\"http://e/\"\")\""
cell "'+'" '+cmd' "\"'+cmd\""
cell "'-' before an expression" '-2+3' "\"'-2+3\""
cell "'@'" '@SUM(A1)' "\"'@SUM(A1)\""
cell "a tab first" $'\t=1' $'"\'\t=1"'
cell "a CR first" $'\r=1' $'"\'\r=1"'
cell "a lone '-'" '-' "\"'-\""
cell "a negative integer stays a number" '-1' '-1'
cell "a negative fraction stays a number" '-0.25' '-0.25'
cell "a negative number with an exponent" '-1.5e-05' '-1.5e-05'
cell "a bare CR inside is quoted" $'a\rb' $'"a\rb"'
cell "an LF inside is quoted" $'a\nb' $'"a\nb"'
cell "'=' not first is left alone" 'a=b' 'a=b'
cell "a quote and a formula: one more quote" "'=x" "\"''=x\""
cell "a quote before text is left alone" "'abc" "'abc"
check_equal "csv: a row of several cells" "$(csv a '=1' '' -3 'x,y')" "a,\"'=1\",,-3,\"x,y\""

# A class of one student whose reasons a guest wrote.
out=$tmp/class
mkdir -p "$out/eve"
printf 'kernel=6.1\nshard=1/1\n' >"$out/grade.options"
cp scripts/grade/grade.rubric "$out/rubric"
echo eve >"$out/students"
reason=$'exit status 1: x\rmallory'
{
	echo "student,vms,case,result,reason,bytes_ok,exits_ok,time_line_ok,pages_ok,kernel_log_ok"
	csv eve 1 4097.fcntl-fcntl fail "$reason" pass fail pass n/a pass
	csv eve 1 4097.mmap-mmap fail '=HYPERLINK("http://e/")' pass fail pass pass pass
} >"$out/eve/results.csv"
{
	echo "$FAILURES_HEADER"
	csv eve exits 2 "1vm 4097.fcntl-fcntl" '@x | <img src=x> `y` [l](http://e/)'
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
