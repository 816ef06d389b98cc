#!/bin/sh
# osbench micro-opt: the micro-benchmarks built twice, with optimisation
# (build/osbench) and with -O0 (build/osbench-O0), and compared side by
# side.  The builds really differ: every micro-benchmark object of each
# records how it was compiled (.GCC.command.line), and each program says
# whether the compiler optimised its micro-benchmarks (__OPTIMIZE__).  The
# table's shape, its ratio column against its medians, --json, and the
# usage errors.  No timing is asserted.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
OSB=build/osbench
O0=build/osbench-O0
T=$(mktemp -d "${TMPDIR:-/tmp}/micro_opt.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM

check "make built $O0" test -x $O0

# last_opt OBJ: the last -O option the object was compiled with.
last_opt() {
	readelf -p .GCC.command.line "$1" 2>/dev/null | tr ' ' '\n' |
		grep -E '^-O([0-3sgz]|fast)?$' | tail -n 1
}
n=0
bad=
for src in user/osbench/micro/*.c; do
	o=${src%.c}.o
	n=$((n + 1))
	opt=$(last_opt "build/obj/$o")
	case $opt in
	'' | -O0) bad="$bad build/obj/$o:${opt:-none}" ;;
	esac
	opt=$(last_opt "build/obj-O0/$o")
	[ "$opt" = -O0 ] || bad="$bad build/obj-O0/$o:${opt:-none}"
done
check_equal "each of the $n micro objects: optimised in osbench, -O0 in osbench-O0" \
	"$bad" ""
check_equal "the rest of osbench is not built twice" \
	"$(find build/obj-O0 -name '*.o' | grep -vc '/user/osbench/micro/')" 0

# Each program's own word, from the compiler: call's 8 figures each.
$OSB micro-opt --this-build --smoke --csv --experiments call >"$T/o2.csv" 2>"$T/o2.err"
check_equal "--this-build: osbench's figures say optimised" \
	"$(cut -d, -f1,2 "$T/o2.csv" | tr '\n' ' ')" \
	"benchmark,build call0,optimised call1,optimised call2,optimised call3,optimised call4,optimised call5,optimised call6,optimised call7,optimised "
$O0 micro-opt --this-build --smoke --csv --experiments call >"$T/o0.csv" 2>"$T/o0.err"
check_equal "--this-build: osbench-O0's figures say unoptimised" \
	"$(sed 1d "$T/o0.csv" | cut -d, -f2 | sort -u)" unoptimised
check_output "--this-build notes the build on stderr" \
	"^# build: unoptimised \(__OPTIMIZE__ not defined" cat "$T/o0.err"

# The side-by-side table.
$OSB micro-opt --smoke --csv --experiments call,syscall >"$T/cmp.csv" 2>"$T/cmp.err"
check_equal "micro-opt exits 0" "$?" 0
check_equal "micro-opt header" "$(head -n 1 "$T/cmp.csv")" \
	"benchmark,unit,o2_n,o2_median,o2_median_lo,o2_median_hi,o0_n,o0_median,o0_median_lo,o0_median_hi,o0_over_o2"
check_equal "micro-opt rows: call0-7, then syscall's five" \
	"$(sed 1d "$T/cmp.csv" | cut -d, -f1 | tr '\n' ' ')" \
	"call0 call1 call2 call3 call4 call5 call6 call7 syscall open_close fopen_fclose create_delete malloc_free "
check_equal "every row has 11 fields, both medians, and -O0 / -O2" \
	"$(sed 1d "$T/cmp.csv" | awk -F, 'NF != 11 || $4 <= 0 || $8 <= 0 ||
		($11 - $8 / $4) ^ 2 > (1e-6 * $11) ^ 2' | wc -l)" 0
check_equal "each interval holds its median" \
	"$(sed 1d "$T/cmp.csv" | awk -F, '$5 > $4 || $6 < $4 || $9 > $8 || $10 < $8' | wc -l)" 0
check_output "micro-opt notes the machine on stderr" "$MACHINE_NOTE" cat "$T/cmp.err"
check_output "micro-opt names the -O0 build it ran" \
	"^# builds: o2: this program.*; o0: osbench-O0 beside this program, micro/ compiled with -O0" \
	cat "$T/cmp.err"
if command -v python3 >/dev/null 2>&1; then
	$OSB micro-opt --smoke --json --experiments overhead >"$T/cmp.json" 2>/dev/null
	check "micro-opt --json: 11 columns, one row per clock" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['title'] == 'micro-opt', d['title']
assert len(d['columns']) == 11, d['columns']
assert [r['benchmark'] for r in d['rows']] == ['rdtsc', 'rdtsc_fenced', 'rdtscp', 'clock_gettime'], d['rows']
" "$T/cmp.json"
fi

# Usage errors and wrong builds, each named.
check_exit "--experiments outside the micro-benchmarks: exit 2" 2 \
	$OSB micro-opt --experiments net
check_output "--experiments names the wrong one" \
	"^micro-opt: --experiments: 'net' is not one of overhead, call," \
	$OSB micro-opt --experiments call,net
check_exit "--o0 that does not exist: exit 1" 1 \
	$OSB micro-opt --smoke --experiments call --o0 "$T/none"
check_output "--o0 that does not exist: said" \
	"$T/none \(make builds it beside osbench\): No such file or directory" \
	$OSB micro-opt --smoke --experiments call --o0 "$T/none"
check_exit "an optimised build given as the -O0 one: exit 1" 1 \
	$OSB micro-opt --smoke --experiments call --o0 $OSB
check_output "an optimised build given as the -O0 one: said" \
	"build/osbench: its micro-benchmarks were compiled with optimisation \(build 'optimised'\): not an -O0 build" \
	$OSB micro-opt --smoke --experiments call --o0 $OSB
check_exit "micro-opt from the -O0 build: exit 1" 1 \
	$O0 micro-opt --smoke --experiments call
check_output "micro-opt from the -O0 build: said" \
	"compiled without optimisation: run micro-opt from the optimised build" \
	$O0 micro-opt --smoke --experiments call
finish
