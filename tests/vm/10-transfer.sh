# shellcheck shell=sh
# vm-timeout: 900
# vm-cost: 175
# master -> slave over 127.0.0.1 in all four method combinations, for the
# sizes around a page, the course's two data sets, 64 MiB (bulk) and a file
# larger than the mmap buffer; every copy compared byte for byte.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

small_buffer_if_slow "$SYNCDEV_ROOT/kernel/syncdev.ko"
big=$(( $(buf_size) * 2 + 1 ))
large=$(bulk 67108864)
course_large=$(bulk $COURSE_LARGE)
for s in 0 1 4095 4096 4097 $course_large $large $big; do
	gen "f$s" "$s"
done
small=""
pages0=$(klog_mark)
for s in $COURSE_SMALL; do
	gen "s$s" "$s" 1
	small="$small s$s"
done

for mm in fcntl mmap; do
	for sm in fcntl mmap; do
		for s in 0 1 4095 4096 4097; do
			transfer "$mm->$sm $s bytes" $mm $sm "f$s"
		done
		# shellcheck disable=SC2086
		transfer "$mm->$sm course ten files" $mm $sm $small
		transfer "$mm->$sm course $course_large bytes" $mm $sm "f$course_large"
		transfer "$mm->$sm $large bytes" $mm $sm "f$large"
		transfer "$mm->$sm $big bytes (2 buffers + 1)" $mm $sm "f$big"
	done
done

# Mixed sizes in one stream, with a small fcntl buffer on the master that
# splits frame headers, and a partial device buffer on the slave.
mixed0=$(klog_mark)
master 4 f0 f4097 s32 f1 fcntl -b 4096 >master.log 2>&1 &
mpid=$!
slave 4 o1 o2 o3 o4 mmap 127.0.0.1 -b 12K -w $WAIT_MS -v >slave.log 2>&1
src=$?
wait $mpid
if [ $? -eq 0 ] && [ $src -eq 0 ] && cmp -s f0 o1 && cmp -s f4097 o2 &&
	cmp -s s32 o3 && cmp -s f1 o4; then
	pass "mixed sizes, small buffers: identical"
else
	fail "mixed sizes, small buffers" "$(tail -n 3 master.log slave.log)"
fi
check_output "slave -v names each file with its CRC32C" \
	"^o2: 4097 bytes, crc32c 0x[0-9a-f]{8}\$" cat slave.log
# Its first non-empty file is written with write(), then its first page
# mapped for the line: the entry must be the one a copy into a mapping
# leaves, as in the course's slave (the buffer's is never dirty: the
# module fills it).
check_equal "mmap slave: the written file's page line is of a mapped, written page" \
	"$(dmesg | sed -n "/$mixed0/,\$p" |
		grep -Ec 'syncdev: slave#[0-9]+: page .* \(present write dirty')" 1

# Each program in mmap mode logs its page descriptors once per transfer:
# the device buffer and the file mapping, only the buffer when all files
# are empty.  4 mmap sides x (8 transfers x 2 + 1) + the mixed slave's 2.
pages=$(klog_since "$pages0" "$PAGE_LINE")
if [ "$pages" -eq 70 ]; then
	pass "mmap mode logged 70 page descriptor lines"
else
	fail "mmap mode logged 70 page descriptor lines" "$pages lines"
fi

# mmap buffers that fill the device buffer (no room to move them: devio.h,
# "Placement") and of three pages (moved at every refill), both sides.
for b in "$(buf_size)" 12K; do
	master 1 "f$big" mmap -b "$b" >master.log 2>&1 &
	mpid=$!
	slave 1 o1 mmap 127.0.0.1 -b "$b" -w $WAIT_MS >slave.log 2>&1
	src=$?
	wait $mpid
	mrc=$?
	if [ $mrc -eq 0 ] && [ $src -eq 0 ] && cmp -s "f$big" o1; then
		pass "mmap -> mmap, -b $b on both sides: identical"
	else
		fail "mmap -> mmap, -b $b on both sides" \
			"master exit $mrc, slave exit $src: $(tail -n 3 master.log slave.log)"
	fi
	rm -f o1
done

# A large --buffer is not mapped in before the connection, as the default
# one is (devio.h, DEVBUF_POPULATE_MAX): a master waiting for its slave
# with -b 256M holds less than 32 MiB.  Its listener shows that it waits.
wait_no_listener
master 1 f4097 fcntl -b 256M >master.log 2>&1 &
mpid=$!
i=0
while ! grep -q ':0915 00000000:0000 0A' /proc/net/tcp && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$mpid/status")
slave 1 o1 fcntl 127.0.0.1 -b 256M -w $WAIT_MS >slave.log 2>&1
src=$?
wait $mpid
mrc=$?
if [ $mrc -eq 0 ] && [ $src -eq 0 ] && cmp -s f4097 o1 &&
	[ "${rss:-0}" -gt 0 ] && [ "$rss" -lt 32768 ]; then
	pass "-b 256M: a waiting master holds under 32 MiB, the copy is identical"
else
	fail "-b 256M: a waiting master holds under 32 MiB, the copy is identical" \
		"RSS ${rss:-unknown} KiB, master exit $mrc, slave exit $src: $(tail -n 3 master.log slave.log)"
fi
rm -f o1
finish
