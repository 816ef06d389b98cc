#!/bin/sh
# The course demo, run inside the VM by scripts/demo: load the module,
# transfer the course's two data sets in all four method combinations,
# print a table of times and sizes, verify every copy byte for byte, and
# show the page-descriptor lines the programs made the module log.
set -u
root=${SYNCDEV_ROOT:-/opt/syncdev}
csv=${SYNCDEV_DEMO_CSV:-}

insmod "$root/kernel/syncdev.ko" || { echo "demo: insmod failed" >&2; exit 1; }
echo "demo: Linux $(uname -r), syncdev.ko loaded"

# The course's sample input: ten small files and one large file.
mkdir -p small large
i=1
for size in 32 859 1343 1663 2042 3065 2808 4056 3659 4619; do
	gendata "$size" "$i" >"small/file$i"
	i=$((i + 1))
done
gendata 12022885 11 >large/file1

files() { # DIR PREFIX: the data set's file names, in order
	ls "$1" | sort -t e -k 2 -n | sed "s|^|$2/|"
}

# ms_of LINE: the milliseconds of a "Transmission time" line.
ms_of() { sed -n 's/^Transmission time: \([0-9.]*\) ms.*/\1/p' "$1"; }
bytes_of() { sed -n 's/.*File size: \([0-9]*\) bytes$/\1/p' "$1"; }

failures=0
rows=""
for set in small large; do
	n=$(ls "$set" | wc -l)
	for mm in fcntl mmap; do
		for sm in fcntl mmap; do
			out=out-$set-$mm-$sm
			mkdir -p "$out"
			# shellcheck disable=SC2046
			master "$n" $(files "$set" "$set") "$mm" >m.txt 2>&1 &
			mpid=$!
			# shellcheck disable=SC2046
			slave "$n" $(files "$set" "$out") "$sm" 127.0.0.1 --wait 5000 >s.txt 2>&1
			src=$?
			wait "$mpid"
			mrc=$?
			ok=yes
			[ "$src" = 0 ] && [ "$mrc" = 0 ] || ok="no (exit $mrc/$src)"
			for p in "$set"/*; do
				f=${p##*/}
				cmp -s "$p" "$out/$f" || ok="no ($f differs)"
			done
			[ "$ok" = yes ] || { failures=$((failures + 1)); cat m.txt s.txt; }
			label="10 small files"
			[ "$set" = large ] && label="1 large file"
			rows="$rows$label,$mm,$sm,$(ms_of m.txt),$(ms_of s.txt),$(bytes_of s.txt),$ok
"
			rm -rf "$out"
		done
	done
done

echo
echo "Transfers over /dev/master_device -> /dev/slave_device (127.0.0.1, one VM):"
echo
printf '%-15s %-7s %-7s %12s %12s %10s  %s\n' "data set" master slave \
	"master ms" "slave ms" bytes "identical"
printf '%s' "$rows" | while IFS=, read -r label mm sm mt st size ok; do
	printf '%-15s %-7s %-7s %12s %12s %10s  %s\n' "$label" "$mm" "$sm" \
		"$mt" "$st" "$size" "$ok"
done
[ -n "$csv" ] && { echo "CSV:"; echo "data_set,master,slave,master_ms,slave_ms,bytes,identical"; printf '%s' "$rows"; }

echo
echo "Page descriptors logged by the programs (dmesg | grep 'syncdev.*page'):"
dmesg | grep 'syncdev: .*page vaddr' | tail -n 4 | sed 's/^\[[^]]*\] //'
echo
echo "Connections (dmesg | grep syncdev):"
dmesg | grep -E 'syncdev: (master|slave)#[0-9]+: (accepted|connected|closed)' | tail -n 4 | sed 's/^\[[^]]*\] //'

rmmod syncdev || failures=$((failures + 1))
echo
if [ "$failures" -eq 0 ]; then
	echo "demo: all 8 transfers arrived byte-for-byte identical"
else
	echo "demo: $failures transfer(s) FAILED"
fi
[ "$failures" -eq 0 ]
