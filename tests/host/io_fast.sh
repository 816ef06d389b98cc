#!/bin/sh
# fast's methods (read, mmap, direct, auto) give run's XOR on awkward
# sizes, warm and cold, with the probes of auto in play; --method is
# obeyed and said; a file that grows while fast reads it gives the XOR of
# exactly the prefix fast announced (its size at open).  No timing is
# asserted.  run's XOR is checked against independently computed values in
# io_run.sh; here it is the reference.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
B=build
# On disk (build/), where O_DIRECT and dropping the cache mean something.
T=$(mktemp -d build/io_fast.XXXXXX) || exit 1
appender=""
cleanup() {
	[ -n "$appender" ] && kill "$appender" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

ref() { $B/run "$1" -r 1M 1000000 2>/dev/null; }

# same_xor NAME FILE [fast options]: fast's XOR equals run's.
# (Its variables are its own: sh has no locals, and callers keep an $f.)
same_xor() {
	sx_name=$1 sx_file=$2
	shift 2
	sx_want=$(ref "$sx_file")
	sx_got=$($B/fast "$@" "$sx_file" 2>"$T/err")
	if [ -n "$sx_want" ] && [ "$sx_got" = "$sx_want" ]; then
		pass "$sx_name"
	else
		fail "$sx_name" "fast $* gave '$sx_got', run '$sx_want': $(tail -n 2 "$T/err")"
	fi
}

for size in 0 1 4095 4096 4097 65537 1000003 3145728 9437187; do
	$B/tests/tools/gendata "$size" 7 >"$T/f$size"
	for m in auto read mmap direct; do
		same_xor "fast --method $m, $size bytes" "$T/f$size" --method "$m"
	done
done

# Several chunks and threads per method, blocks that do not divide them.
f=$T/f9437187
same_xor "read, 12 KiB blocks, 3 threads" "$f" --method read --block 12K --threads 3
same_xor "read, 1 thread" "$f" --method read --threads 1
same_xor "mmap, 64 KiB windows, 3 threads" "$f" --method mmap --window 64K --threads 3
same_xor "direct, depth 1" "$f" --method direct --depth 1
same_xor "direct, depth 3, 5 threads" "$f" --method direct --depth 3 --threads 5
$B/osbench dropcache --fadvise "$f" >/dev/null 2>&1
same_xor "direct, cold" "$f" --method direct

# direct's two queues (io_uring; AIO where io_uring is refused) read the
# same bytes, and stderr says which one ran.
if $B/fast --method direct --queue io_uring "$T/f1" >/dev/null 2>"$T/err"; then
	queues="io_uring aio"
	check_output "direct uses io_uring where it is allowed" \
		"in flight each \(io_uring\)" $B/fast --method direct "$f"
else
	queues="aio"
	check_output "io_uring refused here ($(tail -n 1 "$T/err")): direct falls back to AIO" \
		"in flight each \(aio\)" $B/fast --method direct "$f"
fi
check_output "--queue aio is obeyed and said" "in flight each \(aio\)" \
	$B/fast --method direct --queue aio "$f"
for q in $queues; do
	for size in 0 1 4095 4097 1000003; do
		same_xor "direct, $q, $size bytes" "$T/f$size" --method direct --queue "$q"
	done
	same_xor "direct, $q, depth 3, 5 threads" "$f" --method direct --queue "$q" --depth 3 --threads 5
	$B/osbench dropcache --fadvise "$f" >/dev/null 2>&1
	same_xor "direct, $q, cold" "$f" --method direct --queue "$q"
done
check_exit "bad --queue" 2 $B/fast --queue any "$f"
check_exit "--request over 1 GiB" 2 $B/fast --method direct --request 2G "$f"
# Where io_uring is refused (a container's seccomp profile, as here by
# refuse io_uring_setup), direct falls back to AIO by itself; --queue io_uring fails.
# $nou: a command prefix, split on purpose where it is used.
nou="$B/tests/tools/refuse io_uring_setup"
# shellcheck disable=SC2086
check_output "io_uring refused: direct says it uses AIO" "in flight each \(aio\)" \
	$nou "$B/fast" --method direct "$f"
want=$(ref "$f")
# shellcheck disable=SC2086
got=$($nou "$B/fast" --method direct "$f" 2>/dev/null)
check_equal "io_uring refused: the XOR through AIO" "$got" "$want"
# shellcheck disable=SC2086
check_exit "io_uring refused: --queue io_uring fails" 1 \
	$nou "$B/fast" --method direct --queue io_uring "$f"
# shellcheck disable=SC2086
check_output "io_uring refused: the error says why" \
	"failed \(--queue io_uring\): Operation not permitted" \
	$nou "$B/fast" --method direct --queue io_uring "$f"
$B/osbench dropcache --fadvise "$f" >/dev/null 2>&1
same_xor "read, cold" "$f" --method read
$B/osbench dropcache --fadvise "$f" >/dev/null 2>&1
same_xor "mmap, cold" "$f" --method mmap

# Large enough for auto to measure: the probes' slices count in the XOR.
$B/tests/tools/gendata 100000003 5 >"$T/big"
same_xor "auto measures a cached file" "$T/big"
check_output "auto says it measured" "measured \(CPU time\), 100% cached, read [0-9]+ MiB/s, mmap [0-9]+ MiB/s" \
	$B/fast "$T/big"
# --timeline: the XOR is unchanged, the steps come in order, and the
# reading steps (probes, then the rest) cover the file: their MiB,
# each rounded down, add up to its 95 MiB less at most one per step.
same_xor "auto --timeline" "$T/big" --timeline
steps=$(sed -n 's/^  \([a-z]*\) .*/\1/p' "$T/err" | uniq | tr '\n' ' ')
check_equal "--timeline: its steps in order" "$steps" "residency open probe rest close all choice "
mib=$(awk '$6 == "MiB" { sum += $5; n++ } END { print (sum <= 95 && sum >= 95 - n) ? "covered" : sum " MiB in " n " steps" }' "$T/err")
check_equal "--timeline: the reading steps cover the file" "$mib" "covered"
# With a thread per candidate, read and mmap race side by side: a
# probe line each, each engine with its kept 2 MiB chunk at least (the
# screen; the file has no room for the second round), and the choice
# says the winner's shape and its rate over the loser's.
same_xor "auto, two threads: the race counts in the XOR" "$T/big" --threads 2 --timeline
raced=$(awk '$1 == "probe" && $6 == "MiB" && $5 >= 2 { print $2 }' "$T/err" | sort | tr '\n' ' ')
check_equal "race: read and mmap each read a chunk" "$raced" "mmap read "
# The race's second line ran beside the first, and says so: its time
# counts once, so that all the steps fit in the run's own time (both
# from one clock, the steps inside the run).
check_equal "race: one line beside the other" "$(grep -c 'beside the above$' "$T/err")" 1
total=$(awk '/^fast: [0-9]+ bytes in / { run = $5 * 1000 } $1 == "all" { all = $3 }
	END { print all <= run ? "within" : all " ms of steps in a run of " run " ms" }' "$T/err")
check_equal "race: all steps within the run's time" "$total" "within"
check_output "race: the choice and its reason" \
	"^  choice    (read: 2 threads x [0-9]+ KiB|mmap: 2 threads x 64 MiB windows), race [0-9]+\.[0-9]{2}x (mmap|read)$" \
	$B/fast --threads 2 --timeline "$T/big"
# 200 MB: room for the second round, 8 MiB chunks, for the engines
# within half of the best screen (read always): two rounds, or mmap's
# screen under half of read's.
$B/tests/tools/gendata 200000000 11 >"$T/huge"
same_xor "race in two rounds: the XOR" "$T/huge" --threads 2 --timeline
rounds=$(awk '$1 == "probe" { n++; rate[$2] = $10 + 0 } END {
	if (n == 4) print "two rounds"
	else if (n == 2 && rate["mmap"] < rate["read"] / 2) print "two rounds"
	else print n " probe lines, read " rate["read"] ", mmap " rate["mmap"] }' "$T/err")
check_equal "race: two rounds, or mmap sat the second out" "$rounds" "two rounds"
check_equal "race: a line beside the other in each round" \
	"$(grep -c 'beside the above$' "$T/err")" "$(awk '$1 == "probe" { n++ } END { print n / 2 }' "$T/err")"
rm -f "$T/huge"
check_output "one thread: probes in turn, the reason says trial" \
	"^  choice    (read|mmap): 1 thread x [0-9]+ (KiB|MiB windows), trial [0-9]+\.[0-9]{2}x (mmap|read)$" \
	$B/fast --threads 1 --timeline "$T/big"
check_output "forced: the reason says so" \
	"^  choice    read: 2 threads x 512 KiB, forced$" \
	$B/fast --method read --threads 2 --block 512K --timeline "$T/big"
check_output "too small to measure: the rule" \
	"^  choice    read: [0-9]+ threads x [0-9]+ KiB, rule \(too small to measure\)$" \
	$B/fast --timeline "$T/f9437187"
$B/osbench dropcache --fadvise "$T/big" >/dev/null 2>&1
# direct first; read, when slower, is cut short when it has taken as long
check_output "auto on a dropped file measures read and direct by the clock" \
	"; measured \(wall clock\), [0-9]% cached, read [0-9]+ MiB/s( \(cut short: [0-9]+ of [0-9]+ MiB\))?, direct [0-9]+ MiB/s\)" $B/fast "$T/big"
$B/osbench dropcache --fadvise "$T/big" >/dev/null 2>&1
same_xor "auto on a dropped file" "$T/big"
for m in read mmap direct; do
	check_output "--method $m is obeyed and said" "\\($m, threads: .*forced" \
		$B/fast --method "$m" "$T/big"
done
check_output "--read is --method read" "\\(read, threads: .*forced" $B/fast --read "$T/big"
check_exit "bad --method" 2 $B/fast --method aio "$T/big"
check_exit "bad --depth" 2 $B/fast --depth 0 "$T/big"
check_exit "bad --block" 2 $B/fast --block 1000 "$T/big"

# A file another process appends to: fast reads its size at open, says
# it ("N bytes in"), and XORs exactly those N bytes.
cp "$T/f9437187" "$T/grow"
(while :; do $B/tests/tools/gendata 4099 3 >>"$T/grow"; done) &
appender=$!
for m in auto read mmap direct; do
	$B/fast --method "$m" "$T/grow" >"$T/out.$m" 2>"$T/err.$m"
done
kill "$appender"
wait "$appender" 2>/dev/null
appender=""
for m in auto read mmap direct; do
	n=$(sed -n 's/^fast: \([0-9]*\) bytes in.*/\1/p' "$T/err.$m")
	want=$($B/run "$T/grow" -r "$n" 1 2>/dev/null)
	[ "$n" = 0 ] && want="XOR value: 00000000"
	if [ -n "$n" ] && [ "$(cat "$T/out.$m")" = "$want" ]; then
		pass "growing file, $m: the XOR of the $n bytes at open"
	else
		fail "growing file, $m" "got '$(cat "$T/out.$m")', want '$want' for '$n' bytes"
	fi
done
finish
