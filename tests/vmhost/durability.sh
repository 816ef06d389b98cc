#!/bin/sh
# A confirmed file survives a crash: in a guest with a virtio disk kept
# in a host file (scripts/vm/vm-run --disk-file), slaves receive the
# course's ten small files and one of 4 MiB (fcntl and mmap mode, and
# fcntl mode again over older files of the same names, which the slave
# writes under temporary names and renames, and once more with
# sync_file_range refused, as a seccomp profile may: the slave flushes
# with syncfs then), and
# the instant both programs exit 0 the guest reboots without syncing
# (sysrq b: what is only in its page cache is lost, as in a power cut).
# A second boot mounts the disk as the crash left it: every confirmed
# file is there, byte for byte.  On ext2, where the slave flushes the
# data, then the names with the inodes, and on ext4, where one journal
# commit serves both (outset.c, one_commit).
#
# The control, a third slave with --no-sync in the same boot, must lose
# something, or the check could not tell a durable slave from a lucky
# one: the guest's periodic write-back is off, so only what the slave
# synced itself reaches the disk before the reboot.
#
# What the crash keeps is what the guest wrote to its disk: QEMU hands
# it to the host, which a guest's crash does not undo.  So this shows
# that the slave wrote its files and names, in an order that keeps them,
# before exit 0; not that it flushed the disk's cache after.  Those
# flushes are counted by tests/tools/fsteps.c (docs/results.md).
. tests/lib.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/guest.sh" <<'EOF'
set -u
sizes="32 859 1343 1663 2042 3065 2808 4056 3659 4619 4194304"
disk=$SYNCDEV_ROOT/scripts/guest/disk
srcs="" outs="" n=0
for s in $sizes; do
	n=$((n + 1))
	gendata "$s" $((40 + n)) >"src.$n"
	srcs="$srcs src.$n"
	outs="$outs o.$n"
done

# write: the transfers, then the crash.
write() {
	echo 0 >/proc/sys/vm/dirty_writeback_centisecs
	echo 360000 >/proc/sys/vm/dirty_expire_centisecs
	insmod "$SYNCDEV_ROOT/kernel/syncdev.ko" || exit 1
	"$disk" mount /mnt --fs "$fs" || exit 1
	mkdir /mnt/nosync /mnt/fcntl /mnt/mmap /mnt/replace /mnt/refused
	i=0
	for s in $sizes; do
		i=$((i + 1))
		gendata "$s" $((80 + i)) >"/mnt/replace/o.$i"
	done
	# The output directories exist on the disk before the transfers,
	# as a receiving directory does.
	sync
	# The control last: a durable slave flushes its file system with
	# one syncfs(), which writes any dirty data there, a --no-sync
	# slave's before it too.
	for mode in fcntl mmap replace refused nosync; do
		method=$mode opt="" wrap=""
		case $mode in
		replace) method=fcntl ;;
		refused) method=fcntl wrap="refuse sync_file_range" ;;
		nosync) method=fcntl opt=--no-sync ;;
		esac
		# shellcheck disable=SC2086 # lists of names, the wrapper's words
		(cd /mnt/$mode && $wrap slave $n $outs $method 127.0.0.1 -w 20000 $opt) \
			>slave.log 2>&1 &
		spid=$!
		# shellcheck disable=SC2086
		master $n $srcs fcntl >master.log 2>&1
		mrc=$?
		wait $spid
		src=$?
		if [ $mrc != 0 ] || [ $src != 0 ]; then
			echo "FAIL $fs: $mode transfer: master $mrc, slave $src: $(tail -n 2 master.log slave.log)" >>/share/result
			exit 1
		fi
	done
	echo "confirmed" >/share/confirmed
	echo b >/proc/sysrq-trigger
	sleep 60
}

# check: what the disk holds after the crash.
check() {
	"$disk" attach /mnt --fs "$fs" || exit 1
	for mode in fcntl mmap replace refused; do
		i=0 bad=""
		for s in $sizes; do
			i=$((i + 1))
			cmp -s "src.$i" "/mnt/$mode/o.$i" || bad="$bad o.$i"
		done
		if [ -z "$bad" ]; then
			echo "PASS $fs: $mode slave: all $n confirmed files intact after the crash"
		else
			echo "FAIL $fs: $mode slave: confirmed but lost or damaged after the crash:$bad"
		fi
	done >>/share/result
	i=0 kept=0
	for s in $sizes; do
		i=$((i + 1))
		cmp -s "src.$i" "/mnt/nosync/o.$i" && kept=$((kept + 1))
	done
	if [ $kept -lt $n ]; then
		echo "PASS $fs: control (--no-sync): $((n - kept)) of $n files lost, so a loss shows" >>/share/result
	else
		echo "FAIL $fs: control (--no-sync): all $n files survived: the crash did not drop the page cache, so this check proves nothing" >>/share/result
	fi
}

fs=$2
"$1"
EOF

# crash FS: the two boots on FS, their results in the test's output.
crash() {
	fs=$1
	img=$tmp/$fs.img
	rm -f "$tmp/confirmed" "$tmp/result"
	scripts/vm/vm-run --nfs --disk 64 --disk-file "$img" --share "$tmp" \
		-- sh /share/guest.sh write "$fs" >"$tmp/boot1.log" 2>&1
	rc=$?
	if [ ! -f "$tmp/confirmed" ]; then
		fail "$fs: transfers before the crash" "vm-run exit $rc: $(cat "$tmp/result" 2>/dev/null) $(tail -n 5 "$tmp/boot1.log")"
		return
	fi
	pass "$fs: transfers confirmed, then the guest rebooted without a sync"
	check_equal "$fs: the first boot ended without reporting (the crash)" "$rc" 125
	check "$fs: the first boot logged no kernel problem" \
		sh -c "! grep -E -f scripts/guest/kernel-problems.ere '$tmp/boot1.log'"
	scripts/vm/vm-run --nfs --disk-file "$img" --share "$tmp" \
		-- sh /share/guest.sh check "$fs" >"$tmp/boot2.log" 2>&1
	rc=$?
	check_equal "$fs: the second boot: exit 0" "$rc" 0
	if [ -s "$tmp/result" ]; then
		cat "$tmp/result"
		grep -q '^FAIL ' "$tmp/result" && failures=$((failures + 1))
	else
		fail "$fs: the second boot's checks" "no result: $(tail -n 5 "$tmp/boot2.log")"
	fi
}

crash ext2
crash ext4
finish
