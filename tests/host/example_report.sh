#!/bin/sh
# The example report committed under docs/example-report/ has the shape
# the current osbench report produces, so that it cannot drift silently:
# a fresh report --smoke on this host gives the same files (tables, text
# outputs, the skipped transfers), every table the same header row, and
# report.md the same headings and the same table header rows, in order.
# A change to the report's sections or columns fails here until the
# example is generated again (docs/example-report/README.md says how).
# Figures are not compared.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
OSB=build/osbench
EX=docs/example-report
T=$(mktemp -d "${TMPDIR:-/tmp}/example_report.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM

check "report --smoke runs" $OSB report --smoke --dir "$T" --out "$T/now"

# files DIR: the committed kinds of file in DIR, one name a line.
files() {
	(cd "$1" && ls -- *.csv *.meta.json *.txt *.skipped report.md \
		methodology.md 2>/dev/null) | sort
}
check_equal "the example has the files a report writes" \
	"$(files "$EX" | tr '\n' ' ')" "$(files "$T/now" | tr '\n' ' ')"

bad=
for f in "$T"/now/*.csv; do
	n=${f##*/}
	[ -f "$EX/$n" ] || continue
	[ "$(head -n 1 "$EX/$n")" = "$(head -n 1 "$f")" ] || bad="$bad $n"
done
check_equal "every table of the example has the current header row" "$bad" ""

# shape FILE: the headings of a Markdown report and its tables' header
# rows (the line above each |---| line), the scratch directory's column
# of the file-access table named alike in both.
shape() {
	awk '/^#/ { print; next }
	     /^\|(-+:?\|)+$/ { print prev }
	     { prev = $0 }' "$1" |
		sed -E 's#\| [^|]* \([^)]*\) MiB/s \|#| DIR (FS) MiB/s |#g'
}
shape "$EX/report.md" >"$T/ex.shape"
shape "$T/now/report.md" >"$T/now.shape"
check "report.md has the current sections and table columns" \
	diff -u "$T/ex.shape" "$T/now.shape"
check_output "the example names its machine (osbench machine)" \
	"^\| cpu_model \| " cat "$EX/report.md"
finish
