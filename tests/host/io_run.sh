#!/bin/sh
# run, run2 and fast on crafted files: the XOR contract of docs/io.md,
# fast == run, argument errors with exact exit codes, -w/-r round trip.
# Expected values were computed independently (Python) from the contract.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
B=build
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# xor_of NAME FILE WANT: run, fast (mmap), fast --read and fast on a pipe.
xor_of() {
	want="XOR value: $3"
	check_output "run $1" "^$want\$" $B/run "$2" -r 1M 4096
	check_output "run 1-byte blocks $1" "^$want\$" $B/run "$2" -r 1 1G
	check_output "fast $1" "^$want\$" $B/fast "$2"
	check_output "fast --read $1" "^$want\$" $B/fast --read "$2"
	check_output "fast pipe $1" "^$want\$" sh -c "cat '$2' | $B/fast /dev/stdin"
}

: >"$T/empty"
printf '\001' >"$T/one"
printf '\001\002\003\004\005\006\007' >"$T/seven"
printf 'ABCDE' >"$T/five"
xor_of "empty file" "$T/empty" 00000000
xor_of "1 byte" "$T/one" 00000001
xor_of "7 bytes" "$T/seven" 04040404
xor_of "5 bytes" "$T/five" 44434204
$B/tests/tools/gendata 64 3 >"$T/g64"
$B/tests/tools/gendata 4099 2 >"$T/g4099"
$B/tests/tools/gendata 1000003 5 >"$T/g1m"
xor_of "random 64 bytes" "$T/g64" 107c60f2
xor_of "random 4099 bytes" "$T/g4099" 97bf15d8
xor_of "random 1000003 bytes" "$T/g1m" a337228a

# Larger than the mmap window: many windows, unaligned last one.
check_output "fast 4 KiB windows" "^XOR value: a337228a\$" \
	$B/fast --window 4096 "$T/g1m"
check_output "fast 64 KiB windows, 1 thread" "^XOR value: a337228a\$" \
	$B/fast --window 64K --threads 1 "$T/g1m"
check_output "fast 12 KiB windows, 3 threads" "^XOR value: a337228a\$" \
	$B/fast --window 12K --threads 3 "$T/g1m"
check_exit "fast window not a page multiple" 2 $B/fast --window 1000 "$T/g1m"

# Blocks that do not divide the file, and reading past EOF.
check_output "run odd block size" "^XOR value: a337228a\$" \
	$B/run "$T/g1m" -r 4097 300
check_output "run past EOF says how much" \
	"end of input after 4099 bytes: 4 full blocks and 3 bytes of the 10 blocks" \
	$B/run "$T/g4099" -r 1K 10
check_output "run a prefix" "^XOR value: 00000001\$" $B/run "$T/seven" -r 1 1
check_output "run zero blocks" "^XOR value: 00000000\$" $B/run "$T/g64" -r 4K 0

# Write, then read back: the pattern's XOR (independently computed).
check_output "run -w prints the expected XOR" "^expected XOR value: 6942ea9a\$" \
	$B/run "$T/w" -w 4K 3
check_output "run -r after -w" "^XOR value: 6942ea9a\$" $B/run "$T/w" -r 4K 3
check_output "fast after -w" "^XOR value: 6942ea9a\$" $B/fast "$T/w"
check_output "run -w odd sizes" "^expected XOR value: dff885d7\$" \
	$B/run "$T/w2" -w 100 10
check_output "run -r odd sizes" "^XOR value: dff885d7\$" $B/run "$T/w2" -r 7 1000
if [ "$(wc -c <"$T/w2")" -eq 1000 ]; then pass "run -w writes exactly the blocks"; else fail "run -w writes exactly the blocks" "size $(wc -c <"$T/w2")"; fi
$B/run "$T/w3" -w 1 7 >/dev/null 2>&1
check_output "run -w 1-byte blocks" "^XOR value: 77047901\$" $B/fast "$T/w3"

# Argument errors: usage is 2, failures are 1, with a message.
check_exit "run no arguments" 2 $B/run
check_exit "run without -r/-w" 2 $B/run "$T/g64" 4K 1
check_exit "run -r and -w" 2 $B/run "$T/g64" -r -w 4K 1
check_exit "run bad size suffix" 2 $B/run "$T/g64" -r 4X 1
check_exit "run zero block size" 2 $B/run "$T/g64" -r 0 1
check_exit "run block over 1 GiB" 2 $B/run "$T/g64" -r 2G 1
check_exit "run bad count" 2 $B/run "$T/g64" -r 4K -3
check_exit "run two files" 2 $B/run "$T/g64" "$T/g64" -r 4K 1
check_output "run bad size message" "bad block size '4X'" $B/run "$T/g64" -r 4X 1
check_exit "run missing file" 1 $B/run "$T/nope" -r 4K 1
check_output "run missing file message" "cannot open '.*nope': No such file or directory" \
	$B/run "$T/nope" -r 4K 1
check_exit "run -r on a directory" 1 $B/run "$T" -r 4K 1
check_output "run -r on a directory message" "Is a directory" $B/run "$T" -r 4K 1
if [ "$(id -u)" -ne 0 ]; then
	cp "$T/g64" "$T/locked" && chmod 000 "$T/locked"
	check_exit "run -r on an unreadable file" 1 $B/run "$T/locked" -r 4K 1
fi
check_exit "run -w into a missing directory" 1 $B/run "$T/no/such" -w 4K 1
check_exit "fast missing file" 1 $B/fast "$T/nope"
check_exit "fast no file" 2 $B/fast
check_exit "run2 bad block" 2 $B/run2 "$T/g64" 0
# A missing operand is named, with the usage form.
check_exit "run2 without its block size" 2 $B/run2 "$T/g64"
check_output "run2 without its block size: names it" \
	"^run2: missing block_size after the file '$T/g64' \(usage: run2 FILE BLOCK_SIZE\)\$" \
	$B/run2 "$T/g64"
check_output "run2 with a block size only: the file is missing" \
	"^run2: missing the file before block_size '4096' \(usage: run2 FILE BLOCK_SIZE\)\$" \
	$B/run2 4096
check_output "run2 --device without its block size" \
	"^run2: missing block_size \(usage: run2 --device BLOCK_SIZE\)\$" \
	$B/run2 --device
check_exit "run without its block count" 2 $B/run "$T/g64" -r 1000
check_output "run without its block count: names it" \
	"^run: missing block_count after block_size '1000' \(usage: run FILE -r\|-w BLOCK_SIZE BLOCK_COUNT\)\$" \
	$B/run "$T/g64" -r 1000
check_output "run with the file only" \
	"^run: missing block_size and block_count after the file '$T/g64' \(usage: run FILE -r\|-w BLOCK_SIZE BLOCK_COUNT\)\$" \
	$B/run "$T/g64" -r
check_output "run -r without operands" \
	"^run: missing the file and block_size and block_count \(usage: run FILE -r\|-w BLOCK_SIZE BLOCK_COUNT\)\$" \
	$B/run -r
check_output "run without the file" \
	"^run: missing the file before block_size '1000' \(usage: run FILE -r\|-w BLOCK_SIZE BLOCK_COUNT\)\$" \
	$B/run -r 1000 10
check_exit "run2 max below min" 2 $B/run2 --min 2 --max 1 "$T/g64" 4K
check_exit "fast --help" 0 $B/fast --help
check_exit "run --help" 0 $B/run --help
check_exit "run2 --help" 0 $B/run2 --help

# run2 on a file far too small for its window: said, never silent.
check_exit "run2 short file exits 1" 1 $B/run2 --min 10 --max 20 "$T/g4099" 1K
check_output "run2 short file says so" "^Note: the whole file \(4099 bytes\)" \
	$B/run2 --min 10 --max 20 "$T/g4099" 1K
check_output "run2 short file block count" "^Block count: 4\$" \
	$B/run2 --min 10 --max 20 "$T/g4099" 1K
check_output "run2 --wrap labels the re-reads" "^Note: the file is smaller than that" \
	$B/run2 --wrap --min 0.001 --max 100 "$T/g4099" 1K
finish
