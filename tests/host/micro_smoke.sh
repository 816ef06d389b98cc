#!/bin/sh
# Smoke test of the osbench micro-benchmarks: every experiment runs with
# tiny sizes (--smoke) and its output is well formed: CSV rows have as many
# fields as the header, JSON parses, the figures are positive and finite.
# It asserts no timing: only shape, signs and exit codes.
. tests/lib.sh

OSB=build/osbench
tmp=$(mktemp -d "${TMPDIR:-/tmp}/micro_smoke.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
EXPS="machine overhead call syscall spawn ctxsw memlat membw pagefault fileaccess"

have_py=0
command -v python3 >/dev/null 2>&1 && have_py=1

# csv_ok FILE: every data row has the header's field count; the summary
# columns (n, mean, median, min, max) hold positive finite numbers.  A
# cell may be empty only where the experiment flags the figure as not
# trustworthy: a row whose "untrusted" column says why (a subtracted
# overhead as large as the effect, as a loaded or slow machine gives),
# and pagefault's major faults (tmpfs scratch dirs), passed as $2.
csv_ok() {
	if [ $have_py = 1 ]; then
		python3 - "$1" "${2:-}" <<'PY'
import csv, math, sys
lines = open(sys.argv[1]).readlines()
if any(l.startswith("#") for l in lines):
    sys.exit("a '#' line in the CSV: a spreadsheet reads it as data")
rows = list(csv.reader(lines))
hdr, data = rows[0], rows[1:]
if not data:
    sys.exit("no data rows")
for r in data:
    if len(r) != len(hdr):
        sys.exit("row has %d fields, header %d: %s" % (len(r), len(hdr), r))
why = hdr.index("untrusted") if "untrusted" in hdr else None
for col in ("n", "mean", "median", "min", "max"):
    if col not in hdr:
        continue
    i = hdr.index(col)
    for r in data:
        if r[i] == "" and why is not None and r[why]:
            continue
        if r[i] == "" and sys.argv[2] and sys.argv[2] in ",".join(r):
            continue
        v = float(r[i])
        if not (math.isfinite(v) and v > 0):
            sys.exit("%s not positive and finite in %s" % (col, r))
PY
	else
		# Without python: field counts outside quoted strings only.
		! grep -q '^#' "$1" && sed 's/"[^"]*"/q/g' "$1" |
			awk -F, 'NR == 1 { n = NF } NF != n { exit 1 }'
	fi
}

for e in $EXPS; do
	check_exit "$e --help" 0 "$OSB" "$e" --help
	check_output "$e --help says usage" "^usage: osbench $e" "$OSB" "$e" --help
	if "$OSB" "$e" --smoke --csv --dir "$tmp" >"$tmp/$e.csv" 2>"$tmp/$e.err"; then
		pass "$e --smoke --csv runs"
	else
		fail "$e --smoke --csv runs" "exit $?: $(tail -n 3 "$tmp/$e.err")"
		continue
	fi
	if out=$(csv_ok "$tmp/$e.csv" "major" 2>&1); then
		pass "$e csv well formed, figures positive"
	else
		fail "$e csv well formed, figures positive" "$out"
	fi
	if [ $have_py = 1 ]; then
		"$OSB" "$e" --smoke --json --dir "$tmp" >"$tmp/$e.json" 2>/dev/null
		check "$e json parses" python3 -m json.tool "$tmp/$e.json"
	fi
done

# Every table states its machine (with --csv on stderr, the table alone
# on stdout); the report does so once, at its top.
for e in overhead syscall membw; do
	check_output "$e --csv notes the machine on stderr" "$MACHINE_NOTE" \
		cat "$tmp/$e.err"
done
# The kernel's clock source, as sysfs names it (a container may hide it).
cs=/sys/devices/system/clocksource/clocksource0/current_clocksource
if [ -r $cs ]; then
	check_output "machine names the kernel's clock source" \
		"^clocksource,$(cat $cs)( |\$)" cat "$tmp/machine.csv"
fi

# The interface the I/O benchmarks rely on.
$OSB membw --op read --threads all --csv --smoke >"$tmp/bw.csv" 2>/dev/null
ncpu=$(nproc 2>/dev/null || echo 1)
hdr=$(grep -v '^#' "$tmp/bw.csv" | head -n 1)
row=$(grep -v '^#' "$tmp/bw.csv" | sed -n 2p)
case ",$hdr," in
*,median,*) pass "membw csv has a median column" ;;
*) fail "membw csv has a median column" "header: $hdr" ;;
esac
case "$row" in
"read,$ncpu,"*) pass "membw --op read --threads all: one read row, $ncpu threads" ;;
*) fail "membw --op read --threads all: one read row, $ncpu threads" "row: $row" ;;
esac
check_exit "membw one row only" 0 test "$(grep -vc '^#' "$tmp/bw.csv")" -eq 2

# Argument errors: usage exit code and a message naming the problem.
check_exit "membw bad --op" 2 $OSB membw --op sideways
check_output "membw bad --op message" "--op: 'sideways'" $OSB membw --op sideways
check_exit "membw bad --threads" 2 $OSB membw --threads 0
check_exit "memlat bad --max" 2 $OSB memlat --max lots
check_exit "memlat --max below --min" 2 $OSB memlat --min 1M --max 64K
check_exit "call extra argument" 2 $OSB call surplus
check_exit "reps must be positive" 2 $OSB overhead --reps 0
check_exit "fileaccess not a directory" 2 $OSB fileaccess --smoke "$tmp/none"
check_output "fileaccess names the directory" "$tmp/none: not a directory" \
	$OSB fileaccess --smoke "$tmp/none"
check_exit "spawn missing program" 1 $OSB spawn --smoke --exec "$tmp/none"

# Two directories side by side, and the plot data beside the picture.
mkdir "$tmp/b"
$OSB fileaccess --smoke --csv --max-chunk 4K --plot "$tmp/fa.svg" \
	"$tmp" "$tmp/b" >"$tmp/fa.csv" 2>/dev/null
check_exit "fileaccess: 3 ops x 4 chunks (64 B-4 KiB) x 2 dirs" 0 \
	test "$(grep -v '^#' "$tmp/fa.csv" | sed 1d | wc -l)" -eq 24
check "fileaccess plot data written" test -s "$tmp/fa.svg.dat"
check_exit "fileaccess plot: one curve per directory and op" 0 \
	test "$(grep -c '^# ' "$tmp/fa.svg.dat")" -eq 6
$OSB memlat --smoke --plot "$tmp/lat.txt" >/dev/null 2>&1
check_output "memlat plot: log axes" "^set logscale y" cat "$tmp/lat.txt.gp"
if [ -d /sys/devices/system/cpu/cpu0/cache/index0 ]; then
	check_output "memlat plot marks the sysfs cache sizes" \
		"^set label 'L1 \(sysfs\)'" cat "$tmp/lat.txt.gp"
fi
check_exit "memlat --plot with an unknown extension" 2 \
	$OSB memlat --smoke --plot "$tmp/lat.pdf"

# memlat notes the detected levels and what sysfs says.
$OSB memlat --smoke --csv >"$tmp/lat.csv" 2>"$tmp/lat.err"
check_output "memlat reports the latency beyond the caches" \
	"^# beyond_caches: [0-9.e+]+ ns" cat "$tmp/lat.err"
if [ -d /sys/devices/system/cpu/cpu0/cache/index0 ]; then
	check_output "memlat checks each level against sysfs" \
		"^# level_1: up to [0-9.]+ [KMG]?i?B at [0-9.e+]+ ns \(sysfs L1: [0-9.]+ [KMG]?i?B; (agrees|disagrees: more than 2x apart)\)$" \
		cat "$tmp/lat.err"
	check_output "memlat sums up the check" \
		"^# levels_check: (all [0-9]+ detected levels agree|[0-9]+ of [0-9]+ detected levels disagree) with sysfs$" \
		cat "$tmp/lat.err"
fi

# all_json NAME DIR FAILED: all --json with scratch directory DIR is one
# JSON array of 11 documents, those of the experiments FAILED (a Python
# list) with a "failed" note.
all_json() {
	[ $have_py = 1 ] || return 0
	$OSB all --smoke --json --dir "$2" >"$tmp/all.json" 2>/dev/null
	check "$1" python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert len(d)==11, len(d); assert [x['title'] for x in d if 'failed' in x['notes']]==$3" \
		"$tmp/all.json"
}
all_json "all --json is one JSON array of 11 documents" "$tmp" "[]"

# A failing experiment is reported and the others still run: a scratch
# directory that does not exist fails the three that write there.
$OSB all --smoke --csv --dir "$tmp/none" >"$tmp/allf.csv" 2>"$tmp/allf.err"
check_equal "all with failures: exit 1" "$?" 1
check_output "all with failures: last line counts them" \
	"^all: 3 of 11 experiments failed \(syscall, pagefault, fileaccess\)$" \
	tail -n 1 "$tmp/allf.err"
check_output "all with failures: each with its message" \
	"^all: fileaccess failed \(exit 1\): create $tmp/none/osbench-fileaccess\.[0-9]+: No such file or directory$" \
	cat "$tmp/allf.err"
check_equal "all with failures: every experiment ran" \
	"$(grep -c '^# experiment: ' "$tmp/allf.err")" 11
# all --help names exactly the experiments all runs, in its order.
check_equal "all --help names every experiment all runs" \
	"$($OSB all --help | tr '\n' ' ' | sed -n 's/.*micro-benchmark: \([^.]*\)\..*/\1/p' |
		sed 's/ *([^)]*)//g; s/,/ /g; s/ and / /' | tr -s ' ')" \
	"$(sed -n 's/^# experiment: //p' "$tmp/allf.err" | tr '\n' ' ' | sed 's/ $//')"
check_equal "all with failures: a failed note for each failure" \
	"$(grep -c '^# failed: ' "$tmp/allf.err")" 3
check_output "all with failures: the experiment after a failure measured" \
	"^fork\+exit\+wait," cat "$tmp/allf.csv"
all_json "all --json with failures: 11 documents, 3 say failed" "$tmp/none" \
	"['syscall','pagefault','fileaccess']"
check_exit "report with failures: exit 1" 1 \
	$OSB report --smoke --dir "$tmp/none" --out "$tmp/repf"
check_output "report with failures: still written" "^\| Parameter \|" \
	cat "$tmp/repf/report.md"
check_output "report with failures: their figures not measured" \
	"^\| Page fault, minor \| [^|]* \| [^|]* \| [^|]* \| not measured \|" \
	cat "$tmp/repf/report.md"

# report on the host: the module is not loaded, so no device rows and
# no transfers, which the report says; the rest is a real, tiny run.
check_exit "report --smoke" 0 $OSB report --smoke --dir "$tmp" --out "$tmp/rep"
check_output "report has the summary table" \
	"^\| Parameter \| Base hardware \| Software overhead \| Estimate \| Actual \(median\)" \
	cat "$tmp/rep/report.md"
check_output "report has the -O2 against -O0 table" \
	"^\| benchmark \| unit \| o2_n \| o2_median \| o2_median_lo \| o2_median_hi \| o0_n \| o0_median \| o0_median_lo \| o0_median_hi \| o0_over_o2 \|$" \
	cat "$tmp/rep/report.md"
check_output "report quotes the machine description" "^\| cpu_model \| " \
	cat "$tmp/rep/report.md"
check_exit "report: no table repeats the machine" 1 \
	grep -q "^- machine: " "$tmp/rep/report.md"
for f in report.html methodology.md summary.csv run.txt run2.txt fast.txt \
	sweep.csv cache.csv net.csv fileaccess.csv micro-opt.csv \
	micro-opt.meta.json transfer.skipped; do
	check "report wrote $f" test -s "$tmp/rep/$f"
done
check_output "report --render renders the same folder again" "wrote .*report.html" \
	$OSB report --render --out "$tmp/rep"
finish
