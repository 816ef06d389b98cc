#!/bin/sh
# sweep, cache and syscall-rate with tiny sizes: well-formed CSV (one header,
# the same number of fields on every row, the expected rows) and JSON.
# shellcheck disable=SC2086 # $quick: options, split on purpose everywhere
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
B=build
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
$B/tests/tools/gendata 256K 9 >"$T/data"
quick="--time 0.002 --reps 3"

# csv_ok NAME FILE COLUMNS ROWS: header + ROWS rows of COLUMNS fields.
csv_ok() {
	if grep -q '^#' "$2"; then fail "$1" "a '#' line in the CSV"; return; fi
	body=$(cat "$2")
	got=$(echo "$body" | awk -F, -v n="$3" 'NF != n { bad++ } END { print NR, bad + 0 }')
	if [ "$got" = "$(($4 + 1)) 0" ]; then pass "$1"; else fail "$1" "rows/bad rows '$got', want $(($4 + 1)) 0: $(head -3 "$2")"; fi
}

# json_ok NAME FILE ROWS: valid JSON with ROWS rows.
json_ok() {
	if command -v python3 >/dev/null 2>&1; then
		if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["format_version"] == 1; assert len(d["rows"]) == int(sys.argv[2]); assert all(len(r) == len(d["columns"]) for r in d["rows"])' "$2" "$3" 2>"$T/err"
		then pass "$1"; else fail "$1" "$(tail -1 "$T/err")"; fi
	else
		# Structural check: one object with its version and the four
		# keys, balanced braces.
		if grep -q '^{"format_version":1,"title":.*"notes":{.*"columns":\[.*"rows":\[.*\]}$' "$2" &&
		   [ "$(tr -cd '{' <"$2" | wc -c)" = "$(tr -cd '}' <"$2" | wc -c)" ]
		then pass "$1"; else fail "$1" "not the report's JSON shape"; fi
	fi
}

$B/osbench sweep $quick --max 64 --csv "$T/data" >"$T/s.csv" 2>"$T/s.err"
check_exit "sweep --csv exits 0" 0 $B/osbench sweep $quick --max 2 --csv "$T/data"
csv_ok "sweep csv: 7 rows of 8 fields (1..64 B)" "$T/s.csv" 8 7
check_output "sweep csv header" "^block_bytes,run_bytes,rate_MiB/s,rate_min_MiB/s,rate_max_MiB/s,syscalls_1/s,time_s,flag$" cat "$T/s.csv"
check_output "sweep csv first row is 1 byte" "^1,[0-9]+," cat "$T/s.csv"
check_output "sweep progress on stderr" "^sweep: 64 B: " cat "$T/s.err"
$B/osbench sweep $quick --min 128K --max 512K --json "$T/data" >"$T/s.json" 2>/dev/null
json_ok "sweep json: 2 rows (128K, 256K: none above the file's size)" "$T/s.json" 2
check_output "sweep reads at most the file" '"block":262144,"run":262144,' cat "$T/s.json"
check_output "sweep says why it stops at the file's size" \
	'"file size":"262144 bytes: block sizes above it are not measured \(one read\(\) returns the whole file\)"' cat "$T/s.json"
# A file read whole far faster than the target: every row flagged.
$B/osbench sweep --time 1 --reps 1 --min 128K --max 1M --csv "$T/data" >"$T/f.csv" 2>"$T/f.err"
check_equal "sweep flags runs shorter than the target" \
	"$(cut -d, -f8 "$T/f.csv" | sort | uniq -c | tr -s ' ' | tr '\n' ,)" " 1 flag, 2 short run,"
check_output "sweep says what the flag means" \
	'^# short runs: 2 rows flagged "short run": the whole file was read in less than half the target 1 s' cat "$T/f.err"
$B/osbench sweep $quick --min 4K --max 8K --cold --fadvise --csv "$T/data" >"$T/c.csv" 2>"$T/c.err"
csv_ok "sweep --cold csv" "$T/c.csv" 8 2
check_output "sweep --cold names its method" "^# cache drop: fadvise\(DONTNEED\)" cat "$T/c.err"
$B/osbench cache $quick --min 16K --max 32K --fadvise --csv "$T/data" >"$T/k.csv" 2>/dev/null
csv_ok "cache csv: warm and cold side by side" "$T/k.csv" 10 2
$B/osbench cache $quick --min 16K --max 16K --fadvise --json "$T/data" >"$T/k.json" 2>/dev/null
json_ok "cache json" "$T/k.json" 1
$B/osbench syscall-rate --time 0.002 --reps 3 --dir "$T" --csv >"$T/y.csv" 2>/dev/null
csv_ok "syscall-rate csv: 5 calls" "$T/y.csv" 6 5
check_output "syscall-rate rows" "^call,.*,read,.*write,.*lseek,.*open\+close,.*getpid," sh -c "tr '\n' , <'$T/y.csv'"
$B/osbench syscall-rate --time 0.002 --reps 3 --dir "$T" --json >"$T/y.json" 2>/dev/null
json_ok "syscall-rate json" "$T/y.json" 5
if [ -z "$(ls "$T" | grep osbench-syscall)" ]; then pass "syscall-rate removes its scratch file"; else fail "syscall-rate removes its scratch file" "$(ls "$T")"; fi
# One name per command: "syscalls" is not one.
check_exit "syscalls is an unknown command" 2 $B/osbench syscalls --help

# copy against dd bs=512, tiny sizes: three rows per size, all checked.
$B/osbench copy --smoke --sizes 80,64K --dir "$T" --csv >"$T/cp.csv" 2>"$T/cp.err"
check_equal "copy --csv exits 0" "$?" 0
csv_ok "copy csv: 6 rows of 5 fields" "$T/cp.csv" 5 6
check_equal "copy rows: dd bs=512, copy bs=512, the best block, per size" \
	"$(cut -d, -f1-2 "$T/cp.csv" | tr '\n' ';')" \
	'size_bytes,tool;80,dd bs=512;80,copy bs=512;80,copy best block;65536,dd bs=512;65536,copy bs=512;65536,copy best block;'
check_output "copy says every copy is checked" \
	"^# method: median of 3 copies each, every copy checked byte for byte" cat "$T/cp.err"
check_equal "copy removes its scratch files" "$(ls "$T" | grep -c osbench-copy)" 0
check_exit "copy with a bad size" 2 $B/osbench copy --sizes 80,x --dir "$T"
check_output "copy with a bad size: names it" \
	"^copy: bad size 'x' in --sizes \(e.g. 80,1M,1G\)\$" \
	$B/osbench copy --sizes 80,x --dir "$T"
check_exit "sweep missing file" 1 $B/osbench sweep $quick "$T/nope"
check_exit "sweep --min above --max" 2 $B/osbench sweep --min 8 --max 4 "$T/data"
check_exit "sweep bad --time" 2 $B/osbench sweep --time 0 "$T/data"
check_exit "sweep bad --plot name" 2 $B/osbench sweep --plot out.pdf "$T/data"
check_exit "sweep --cold on the device" 2 $B/osbench sweep --cold --device
if [ ! -e /dev/slave_device ]; then
	check_output "run --device without the module says so" \
		"cannot open /dev/slave_device \(is the syncdev module loaded\?\)" \
		$B/run --device -r 4K 1
fi
check_exit "run --device with a file operand" 2 $B/run --device "$T/data" -r 4K 1
check_exit "run --master bad address" 2 $B/run --device --master 1.2.3 -r 4K 1
check_exit "syscall-rate stray argument" 2 $B/osbench syscall-rate extra
check_exit "sweep --help" 0 $B/osbench sweep --help

# The options the table commands share with the micro-benchmarks (benchopt).
$B/osbench sweep --smoke --max 64 --csv "$T/data" >"$T/q.csv" 2>"$T/q.err"
csv_ok "sweep --smoke: 7 rows" "$T/q.csv" 8 7
check_output "sweep --smoke: a fiftieth of --time, 3 runs" \
	"^# method: .* doubling to 0.002 s .* median of 3 runs" cat "$T/q.err"
$B/osbench sweep --quick --reps 2 --time 0.002 --max 2 --csv "$T/data" >"$T/q.csv" 2>"$T/q.err"
check_output "sweep --reps and --time override --quick" \
	"^# method: .* doubling to 0.002 s .* median of 2 runs" cat "$T/q.err"
check_output "sweep --help lists the common options" "^  --quick " $B/osbench sweep --help
check_exit "sweep --reps 0" 2 $B/osbench sweep --reps 0 "$T/data"
check_exit "sweep --reps above 1000" 2 $B/osbench sweep --reps 1001 "$T/data"
$B/osbench bench-io --smoke --reps 1 --fadvise --csv "$T/data" >"$T/b.csv" 2>"$T/b.err"
csv_ok "bench-io --csv: 23 rows of 8 columns" "$T/b.csv" 8 23
check_output "bench-io: a best-reference row with its target, per state" \
	"^cold,best reference: [^,]*,[0-9.]*,[0-9.]*,[0-9.]*,[0-9.]*,>= 1,(met|missed)$" cat "$T/b.csv"
check_output "bench-io: someone else's file is not rewritten" \
	"^# fast written: not measured: the file is not the pattern file" cat "$T/b.err"
check_output "bench-io: the tools alternate" \
	"^# method: .*median of 1 runs, the tools taken in turn" cat "$T/b.err"
check_output "bench-io notes the machine" "$MACHINE_NOTE" cat "$T/b.err"
check_output "bench-io notes the load average" \
	"^# load: 1-minute load average [0-9.]* before, [0-9.]* after" cat "$T/b.err"
check_output "bench-io notes the start-up it measured" \
	"^# start-up: fast --help takes [0-9]+\.[0-9]{2} ms from fork to exit here \(median of 3\)" cat "$T/b.err"
# 256 KiB: fast's run may or may not take twice the start-up, so either
# form of each state is right; a state left out is not.
if command -v fio >/dev/null; then
	clean='( [0-9]+ MiB/s, [0-9.]+ x|: its run \([0-9.]+ ms\) is too short to take the start-up out)'
	check_output "bench-io: fast without its start-up against fio psync" \
		"^# start-up: .*against fio psync: warm read back$clean; cold$clean$" cat "$T/b.err"
fi
check_output "bench-io: the XOR check is one whole note" \
	"^# check: every timed run of fast printed XOR value: [0-9a-f]{8}, as an untimed fast --method read did$" cat "$T/b.err"
check_output "bench-io: cold dd iflag=direct row" \
	"^cold,dd bs=1M iflag=direct," cat "$T/b.csv"
check_exit "bench-io --reps above 100" 2 $B/osbench bench-io --reps 101 "$T/data"
check_output "syscall-rate --plot: no curve" "syscall-rate has no curve to --plot" \
	$B/osbench syscall-rate --plot "$T/y.svg"
check_exit "syscall-rate --plot exits 2" 2 $B/osbench syscall-rate --plot "$T/y.svg"
check_exit "sweep --dir: no scratch files" 2 $B/osbench sweep --dir "$T" "$T/data"
check_exit "sweep unknown option" 2 $B/osbench sweep --bogus "$T/data"
check_exit "cache --help" 0 $B/osbench cache --help
check_exit "syscall-rate --help" 0 $B/osbench syscall-rate --help
check_output "syscall-rate --help points to syscall" "^See also osbench syscall:" \
	$B/osbench syscall-rate --help
check_output "syscall --help points to syscall-rate" "^See also osbench syscall-rate:" \
	$B/osbench syscall --help
check_output "osbench --help tells syscall-rate from syscall" \
	"^  syscall-rate .*\(cf\. syscall\)" $B/osbench --help
check_output "osbench --help tells syscall from syscall-rate" \
	"^  syscall  .*\(cf\. syscall-rate\)" $B/osbench --help
check_exit "feed --help" 0 $B/osbench feed --help
check_exit "bench-io --help" 0 $B/osbench bench-io --help
check_exit "dropcache --fadvise" 0 $B/osbench dropcache --fadvise "$T/data"
if command -v gnuplot >/dev/null 2>&1; then
	"$B/osbench" sweep $quick --min 1K --max 4K --plot "$T/p.svg" "$T/data" >/dev/null 2>&1
	check_output "sweep --plot draws an SVG" "<svg" head -c 2000 "$T/p.svg"
else
	check_output "sweep --plot without gnuplot says so" "gnuplot is not installed" \
		"$B/osbench" sweep $quick --min 1K --max 4K --plot "$T/p.svg" "$T/data"
fi
check_equal "sweep --plot data beside the picture: 3 points" \
	"$(grep -c '^[0-9]' "$T/p.svg.dat")" 3
check_output "sweep --plot script beside the picture" "^plot '$T/p.svg.dat' index 0 " \
	cat "$T/p.svg.gp"
"$B/osbench" cache $quick --min 16K --max 32K --fadvise --csv --plot "$T/k.txt" \
	"$T/data" >"$T/k2.csv" 2>/dev/null
check_output "cache --plot: warm and cold curves" \
	"index 0 (using 1:2:3:4 with yerrorlines|with linespoints) title 'warm', .* index 1 (using 1:2:3:4 with yerrorlines|with linespoints) title 'cold'" \
	cat "$T/k.txt.gp"
csv_ok "cache --plot leaves stdout to the table" "$T/k2.csv" 10 2
finish
