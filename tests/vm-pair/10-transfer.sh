# shellcheck shell=sh
# vm-timeout: 900
# vm-cost: 114
# The same transfers across two guests: SYNCDEV_ROLE says which one this
# is, SYNCDEV_PEER the other's address.  Both generate the data; the slave
# compares what it received with its own copy.  With one_pass
# (tests/lib-xfer.sh) only fcntl->mmap and mmap->fcntl, which take each
# side's two methods once (tests/vm/10-transfer.sh moves every set in all
# four pairs within a guest).
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

# Across the virtual link the course's large file is volume too.
sets="0 1 4097 $(bulk $COURSE_LARGE) $(bulk 67108864)"
for s in $sets; do
	gen "f$s" "$s"
done

for mm in fcntl mmap; do
	for sm in fcntl mmap; do
		if one_pass && [ $mm = $sm ]; then
			continue
		fi
		for s in $sets; do
			name="$mm->$sm $s bytes across two guests"
			if [ "$SYNCDEV_ROLE" = master ]; then
				check "$name: master" master 1 "f$s" $mm
				continue
			fi
			slave 1 out $sm "$SYNCDEV_PEER" -w 60000 >slave.log 2>&1
			rc=$?
			if [ $rc -eq 0 ]; then
				check_same "$name" "f$s" out
				check_time_line "$name: slave line" slave.log "$s"
			else
				fail "$name" "slave exit $rc: $(cat slave.log)"
			fi
			rm -f out
		done
	done
done
finish
