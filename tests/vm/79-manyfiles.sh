# shellcheck shell=sh
# vm-timeout: 300
# vm-cost: 91
# Many small files in one transfer: 1000 files of 1 KiB arrive byte for
# byte (fcntl -> fcntl and mmap -> mmap durable, the default, and fcntl ->
# mmap with --no-sync; tests/vm/10-transfer.sh has every combination with
# the course's ten files), and no temporary file is left; a file replaced
# in a many-file transfer keeps its mode; a slave stopped by SIGTERM while
# many verified files wait for their one durable point removes every
# temporary file and puts none in place, whether its files are unnamed
# (the default here) or named.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

# 1000 files; an eighth of them under a debug kernel, where each file's
# kernel and file-system work is checked as well by fewer.
n=$(bulk 1000 100)
kept=$(printf '%04d' $((n / 2)))
mkdir in out
# 1024 distinct bytes per file (printf is built into the shell).
i=0
while [ $i -lt "$n" ]; do
	name=$(printf 'f%04d' $i)
	printf '%01023d\n' $i >"in/$name"
	ins="$ins in/$name"
	outs="$outs out/$name"
	i=$((i + 1))
done
cat in/f* >all.in

# many NAME MASTER_METHOD SLAVE_METHOD [KEPT] [SLAVE_OPTION...]: the $n
# files; with KEPT, out/fKEPT must still be 0600 afterwards.
many() {
	_what=$1 _mm=$2 _sm=$3 _kept=
	shift 3
	case ${1:-} in [0-9]*) _kept=$1; shift ;; esac
	# shellcheck disable=SC2086
	master $n $ins "$_mm" >master.log 2>&1 &
	_mpid=$!
	# shellcheck disable=SC2086
	slave $n $outs "$_sm" 127.0.0.1 -w $WAIT_MS "$@" >slave.log 2>&1
	_src=$?
	wait $_mpid
	_mrc=$?
	if [ $_mrc -ne 0 ] || [ $_src -ne 0 ]; then
		fail "$_what" "master exit $_mrc, slave exit $_src: $(tail -n 3 master.log slave.log)"
	else
		# Every file 1024 bytes and their concatenation the input's:
		# each file is its input byte for byte.
		cat out/f* >all.out
		check_equal "$_what: $n files" "$(ls out | wc -l)" "$n"
		check_equal "$_what: none of another size" \
			"$(find out -type f ! -size 1024c | wc -l)" 0
		check "$_what: identical" cmp -s all.in all.out
		check_equal "$_what: no temporary file left" \
			"$(ls -A out | grep -c syncdev-)" 0
		[ -z "$_kept" ] || check_output "$_what: the replaced file is still 0600" \
			'^-rw------- ' ls -l "out/f$_kept"
	fi
	rm -f out/f* out/.f* all.out
}

# A replaced file in the batch keeps its mode (checked after the first).
printf old >"out/f$kept"
chmod 0600 "out/f$kept"
many "$n x 1 KiB, fcntl -> fcntl" fcntl fcntl "$kept"
many "$n x 1 KiB, mmap -> mmap" mmap mmap
many "$n x 1 KiB, fcntl -> mmap, --no-sync" fcntl mmap --no-sync

# SIGTERM while $n verified files wait for the durable point and the
# last one, large, is being received: every temporary file removed,
# nothing put in place.  Twice: as root on tmpfs the slave writes unnamed
# files (O_TMPFILE), seen only as its descriptors on deleted files, all
# $n + 1 of them held; with SYNCDEV_NO_TMPFILE=1, under temporary names.
# The slave is looked at only while it is stopped, so what is seen is
# where it is when the SIGTERM comes; it runs a tenth of a second between
# looks, far less than the 32 MiB take.
size=33554432
gen big "$size" 7
# The slave has made big's file, the $n files before it done: all $n + 1
# held unnamed, or under temporary names (seen without /proc/PID/io,
# which a kernel without task I/O accounting lacks).
big_started() {
	if [ "$1" = named ]; then
		[ "$(ls -A out | grep -c '^\..*syncdev-')" -eq $((n + 1)) ]
	else
		[ "$(ls -l "/proc/$spid/fd" 2>/dev/null | grep -c ' (deleted)$')" -eq $((n + 1)) ]
	fi
}
# stopped_when SECONDS PID COMMAND...: stop PID, run COMMAND, and leave
# PID stopped once COMMAND succeeds; otherwise let PID run a tenth of a
# second and look again, for at most SECONDS (times SYNCDEV_TIME_SCALE).
stopped_when() {
	read -r _now _ </proc/uptime
	_end=$((${_now%.*} + $1 * ${SYNCDEV_TIME_SCALE:-1}))
	_pid=$2
	shift 2
	while kill -STOP "$_pid" 2>/dev/null; do
		"$@" && return 0
		kill -CONT "$_pid"
		read -r _now _ </proc/uptime
		[ "${_now%.*}" -lt $_end ] || return 1
		sleep 0.1
	done
	return 1
}
# sigterm_mid_batch WAY: WAY unnamed or named.
sigterm_mid_batch() {
	_w="SIGTERM mid-batch ($1)"
	rm -rf out && mkdir out
	# shellcheck disable=SC2086
	master $((n + 1)) $ins big fcntl -b 64K >master.log 2>&1 &
	mpid=$!
	# shellcheck disable=SC2086
	slave $((n + 1)) $outs out/big fcntl 127.0.0.1 -b 64K -w $WAIT_MS >slave.log 2>&1 &
	spid=$!
	stopped_when 60 $spid big_started "$1"
	made=$?
	check_equal "$_w: the slave is in the last file" $made 0
	if [ "$1" = named ]; then
		check_equal "$_w: every file waits under a temporary name" \
			"$(ls -A out | grep -c '^\..*syncdev-')" $((n + 1))
	else
		check_equal "$_w: the slave holds every file open, unnamed" \
			"$(ls -l "/proc/$spid/fd" | grep -c ' (deleted)$')" $((n + 1))
		check_equal "$_w: no name in the output directory" \
			"$(ls -A out | wc -l)" 0
	fi
	[ $made -eq 0 ] || echo "# $(tail -n 3 master.log slave.log)"
	# A stopped process takes its SIGTERM when it is continued.
	kill -TERM $spid
	kill -CONT $spid
	wait_gone $spid
	src=$?
	wait_gone $mpid
	check_equal "$_w: slave killed by SIGTERM" $src 143
	check_equal "$_w: nothing left in the output directory" \
		"$(ls -A out | wc -l)" 0
}
sigterm_mid_batch unnamed
SYNCDEV_NO_TMPFILE=1
export SYNCDEV_NO_TMPFILE
sigterm_mid_batch named
unset SYNCDEV_NO_TMPFILE
finish
