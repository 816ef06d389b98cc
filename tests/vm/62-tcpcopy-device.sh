# shellcheck shell=sh
# vm-timeout: 600
# vm-cost: 95
# tcpcopy --device: the benchmark baseline's copy through syncdev (send on
# /dev/master_device, recv on /dev/slave_device), with tcpcopy's own wire
# format (the size first, the data, the CRC32C with --crc; with
# --zerocopy sent by sendfile() into the master device) and the
# receiver's answer coming back over the device; every copy byte-exact.
# Then osbench transfer --smoke, whose ladder runs every tcpcopy mode and
# master/slave and checks each copy by CRC32C, and its --files table.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

small_buffer_if_slow "$SYNCDEV_ROOT/kernel/syncdev.ko"
big=$(( $(buf_size) * 2 + 1 ))
mid=$(bulk 3000001)
for s in 0 1 4097 $mid $big; do
	gen "f$s" "$s"
done

# devcopy NAME IN [tcpcopy options]: send IN through the device into out.
devcopy() {
	name=$1 in=$2
	shift 2
	tcpcopy send "$in" --device "$@" >send.log 2>&1 &
	spid=$!
	tcpcopy recv 127.0.0.1 out --device -w "$WAIT_MS" "$@" >recv.log 2>&1
	rrc=$?
	wait $spid
	src=$?
	if [ $rrc -ne 0 ] || [ $src -ne 0 ]; then
		fail "$name" "send exit $src, recv exit $rrc: $(cat send.log recv.log | tail -n 4)"
		rm -f out
		return
	fi
	check_same "$name: identical" "$in" out
	# The sender's line comes after the receiver's answer.
	check_time_line "$name: send line" send.log "$(wc -c <"$in")"
	check_time_line "$name: recv line" recv.log "$(wc -c <"$in")"
	rm -f out
}

mid=$(bulk 3000001)
for s in 0 1 4097 $mid $big; do
	devcopy "tcpcopy --device $s bytes" "f$s"
	devcopy "tcpcopy --device --crc $s bytes" "f$s" --crc
	devcopy "tcpcopy --device --zerocopy $s bytes" "f$s" --zerocopy
	devcopy "tcpcopy --device -b 4K --crc $s bytes" "f$s" -b 4K --crc
done

# The ladder: eleven rows, every copy checked by CRC32C inside osbench.
# One sample per row under a debug kernel (bench_reps).
# shellcheck disable=SC2046 # an option or none
if osbench transfer --smoke $(bench_reps -) --dir . --csv >transfer.csv 2>transfer.log; then
	pass "osbench transfer --smoke: exit 0"
else
	fail "osbench transfer --smoke" "$(tail -n 5 transfer.log)"
fi
for row in "tcpcopy" "tcpcopy --zerocopy" "tcpcopy --device" "tcpcopy --device --zerocopy" \
	"tcpcopy --device --crc" "tcpcopy --crc" "fcntl -> fcntl" \
	"fcntl -> fcntl --copy" "fcntl -> mmap" "mmap -> fcntl" "mmap -> mmap"; do
	check_output "osbench transfer: a row '$row'" "^$row," cat transfer.csv
done
check_output "osbench transfer: the targets with met/missed" \
	"targets.*of 3 met" cat transfer.log
check_output "osbench transfer: notes the machine" "$MACHINE_NOTE" \
	cat transfer.log
# The cost of a file: ten files and one of the same bytes by every row,
# each output checked byte for byte inside osbench (its untimed round).
if osbench transfer --files 10 --smoke --reps 1 --dir . --csv \
	>files.csv 2>files.log; then
	pass "osbench transfer --files 10: exit 0"
else
	fail "osbench transfer --files 10" "$(tail -n 5 files.log)"
fi
for row in "tcpcopy --tar" "tcpcopy --tar --rename" "fcntl -> fcntl" \
	"fcntl -> mmap" "mmap -> fcntl" "mmap -> mmap" \
	"fcntl -> fcntl --no-sync" "mmap -> mmap --no-sync"; do
	check_output "osbench transfer --files: a row '$row' of 10 files" \
		"^$row,(\"[^\"]*\"|[^,]*),10,10240," cat files.csv
done
check_output "osbench transfer --files: the targets noted" \
	"targets.* met" cat files.csv files.log
# The guest always runs under TCG (scripts/vm/vm-run): a known signature.
check_output "osbench machine: names the guest's hypervisor and its signature" \
	'^hypervisor,"QEMU TCG \(cpuid signature ""TCGTCGTCGTCG""\)"$' \
	osbench machine --csv
finish
