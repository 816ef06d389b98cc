#!/bin/sh
# osbench report --only: the names it takes and refuses (exit 2, with the
# list of experiments), the experiments it runs and those it does not (a
# NAME.skipped that says so, the section showing it, the summary's figures
# "not measured"), machine always, and a second run into the same folder
# that leaves nothing of the first: the tables it no longer selects are
# removed and the sentences of the ones it runs again are gone.
. tests/lib.sh

OSB=build/osbench
tmp=$(mktemp -d "${TMPDIR:-/tmp}/report_only.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
out=$tmp/rep

for bad in foo "call,,net" "" "call,"; do
	$OSB report --smoke --only "$bad" --dir "$tmp" --out "$out" \
		>"$tmp/err" 2>&1
	check_equal "--only '$bad' is a usage error" "$?" 2
	check_output "--only '$bad': the experiments are listed" \
		"the report's experiments: machine,overhead,call,.*,net,micro-opt,io,transfer$" \
		cat "$tmp/err"
done
check_equal "a refused --only measures nothing" "$(ls "$tmp")" "err"
$OSB report --render --only call --out "$out" >"$tmp/err" 2>&1
check_equal "--render takes no --only" "$?" 2

check "report --smoke --only call,io" $OSB report --smoke --only call,io \
	--dir "$tmp" --out "$out"
for f in machine.csv call.csv run.txt fast.txt sweep.csv cache.csv \
	syscall-rate.csv copy.csv report.md report.html; do
	check "call,io: $f written" test -s "$out/$f"
done
for n in overhead syscall net fileaccess micro-opt transfer; do
	check "call,io: no $n.csv" test ! -e "$out/$n.csv"
	check_equal "call,io: $n.skipped says why" "$(cat "$out/$n.skipped")" \
		"Not selected: osbench report --only call,io."
done
check_output "the section of an experiment not selected says so" \
	"^Not selected: osbench report --only call,io\.$" \
	sed -n '/^### overhead$/,/^### /p' "$out/report.md"
check_output "a figure of a selected experiment is measured" \
	"^\| Procedure call, 3 arguments \| [^|]* \| [^|]* \| [^|]* \| [0-9]" \
	cat "$out/report.md"
check_output "a figure of one not selected is not" \
	"^\| System call \(getpid\) \| [^|]* \| [^|]* \| [^|]* \| not measured \|" \
	cat "$out/report.md"

check "the same folder again with --only overhead" \
	$OSB report --smoke --only overhead --dir "$tmp" --out "$out"
left=$(cd "$out" && ls call.csv call.meta.json run.txt run-w.txt fast.txt \
	sweep.csv sweep.svg cache.csv copy.csv overhead.skipped 2>/dev/null)
check_equal "nothing of the first run's selection is left" "$left" ""
check "overhead.csv written" test -s "$out/overhead.csv"
check_equal "call.skipped names the new selection" \
	"$(cat "$out/call.skipped")" \
	"Not selected: osbench report --only overhead."
check_output "the I/O sections say they were not selected" \
	"^Not selected: osbench report --only overhead\.$" \
	sed -n '/^### run$/,/^### run2$/p' "$out/report.md"
finish
