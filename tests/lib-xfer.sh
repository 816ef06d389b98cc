# shellcheck shell=sh
# Helpers for the guest tests that run master and slave (tests/vm*/).
# Source after lib.sh.
# shellcheck disable=SC2034 # its variables are for the scripts that source it

# The course's ten small files (24146 bytes together) and its large file.
COURSE_SMALL="32 859 1343 1663 2042 3065 2808 4056 3659 4619"
COURSE_LARGE=12022885
# A slave started before its master retries for this long (ms).
WAIT_MS=20000

# The module's buffer size: mmap mode moves at most this much per ioctl.
buf_size() { cat /sys/module/syncdev/parameters/buf_size; }

# bulk BYTES [FLOOR]: the size of a transfer that is there for its volume,
# not for a boundary: BYTES, divided by SYNCDEV_SIZE_DIV under a debug
# kernel (scripts/vm/vm-common.sh), which moves data tens of times slower,
# but not below FLOOR.  Sizes that sit at a boundary (a page, a buffer,
# more than the socket buffers hold) are never passed through it.
bulk() {
	_b=$(($1 / ${SYNCDEV_SIZE_DIV:-1}))
	[ "$_b" -ge "${2:-0}" ] || _b=$2
	echo "$_b"
}

# slow_kernel: true under a debug kernel (SYNCDEV_SIZE_DIV above 1).
slow_kernel() {
	[ "${SYNCDEV_SIZE_DIV:-1}" -gt 1 ]
}

# one_pass: true when a script that repeats one kernel path over many
# combinations runs each path once: under a debug kernel, there to catch
# what each path does wrong, not how often, and with SYNCDEV_ONE_PASS=1,
# on the kernels other than the default one (tests/run), where what
# differs is the kernel under the paths, not the combinations.
one_pass() {
	[ -n "${SYNCDEV_ONE_PASS:-}" ] || slow_kernel
}

# bench_reps N: the --reps option of an osbench run that a test makes to
# check its tables, not their figures' spread: "--reps 1" under a debug
# kernel, where each sample takes tens of times longer (with one sample
# the median is also the minimum, the maximum and both ends of its
# interval); else "--reps N", or nothing when N is "-" (the mode's own).
bench_reps() {
	if slow_kernel; then
		echo "--reps 1"
	elif [ "$1" != - ]; then
		echo "--reps $1"
	fi
}

# small_buffer_if_slow KO: under a debug kernel (SYNCDEV_SIZE_DIV above 1)
# reload the module KO with a 2 MiB buffer instead of 8, for a test whose
# sizes follow the buffer (one buffer, two and a byte): each boundary
# stays, with a quarter of the data.
small_buffer_if_slow() {
	slow_kernel || return 0
	_sb=$(bulk "$(buf_size)" 2097152)
	rmmod syncdev
	check "insmod buf_size=$_sb (debug kernel)" insmod "$1" buf_size="$_sb"
}

# klog_mark: write a unique line into the kernel log and print it;
# klog_since MARK ERE: how many lines matching ERE were logged after it.
# The log is never cleared (the harness reads all of it at the end) and it
# wraps (128 KiB in Debian's kernel): counts taken before and after are
# not comparable, lines after a mark are.
klog_mark() {
	_m="syncdev-test mark $(cat /proc/sys/kernel/random/uuid)"
	echo "$_m" >/dev/kmsg
	echo "$_m"
}
klog_since() { dmesg | sed -n "/$1/,\$p" | grep -Ec "$2"; }
PAGE_LINE='syncdev: (master|slave)#[0-9]+: page vaddr=0x[0-9a-f]+ pfn=0x[0-9a-f]+ '

# wait_no_listener: the master's listener, which lingers after the last
# master closed (listen_linger_ms), is gone, so a slave is refused.
wait_no_listener() {
	_i=0
	# 0915 is port 2325, 0A is TCP_LISTEN.
	while grep -q ':0915 00000000:0000 0A' /proc/net/tcp && [ $_i -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	! grep -q ':0915 00000000:0000 0A' /proc/net/tcp
}

# gen NAME SIZE [SEED]: reproducible data (the same on every machine).
gen() { gendata "$2" "${3:-$2}" >"$1"; }

# check_time_line NAME FILE BYTES: FILE holds the course's output line.
check_time_line() {
	if grep -Eq "^Transmission time: [0-9]+\.[0-9]{6} ms, File size: $3 bytes\$" "$2"; then
		pass "$1"
	else
		fail "$1" "no 'Transmission time: T ms, File size: $3 bytes' line in: $(tail -n 3 "$2")"
	fi
}

# transfer NAME MMETHOD SMETHOD IN... : master sends the IN files in the
# background, the slave receives them into out.1 ... out.N over
# 127.0.0.1; both must succeed, print the line, and every copy must be
# identical.  Outputs are removed afterwards.
transfer() {
	_name=$1 _mm=$2 _sm=$3
	shift 3
	_n=$# _outs="" _total=0 _i=0
	for _f in "$@"; do
		_i=$((_i + 1))
		_outs="$_outs out.$_i"
		_total=$((_total + $(wc -c <"$_f")))
	done
	master "$_n" "$@" "$_mm" >master.log 2>&1 &
	_mpid=$!
	# shellcheck disable=SC2086
	slave "$_n" $_outs "$_sm" 127.0.0.1 -w $WAIT_MS >slave.log 2>&1
	_src=$?
	wait $_mpid
	_mrc=$?
	if [ $_mrc -ne 0 ] || [ $_src -ne 0 ]; then
		fail "$_name" "master exit $_mrc, slave exit $_src: $(cat master.log slave.log | tail -n 4)"
		rm -f out.*
		return
	fi
	_i=0 _bad=""
	for _f in "$@"; do
		_i=$((_i + 1))
		cmp -s "$_f" "out.$_i" || _bad="$_bad $_f"
	done
	if [ -z "$_bad" ]; then pass "$_name: identical"; else fail "$_name" "differs:$_bad"; fi
	check_time_line "$_name: master line" master.log $_total
	check_time_line "$_name: slave line" slave.log $_total
	rm -f out.* .out.*
}

# wait_gone PID [SECONDS]: wait for PID (a child) to exit, at most SECONDS
# (default 60, times SYNCDEV_TIME_SCALE); its exit status, or 255 if it
# was still running (then it is killed).  A hang is a failure, not a hang.
wait_gone() {
	_i=0 _n=$((${2:-60} * 10 * ${SYNCDEV_TIME_SCALE:-1}))
	while kill -0 "$1" 2>/dev/null && [ $_i -lt $_n ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	if kill -0 "$1" 2>/dev/null; then
		kill -9 "$1"
		wait "$1"
		return 255
	fi
	wait "$1"
}

# poll_until SECONDS COMMAND...: run COMMAND until it succeeds, without
# sleeping in between, for at most SECONDS (times SYNCDEV_TIME_SCALE) by
# the clock; succeeds if COMMAND did.  For a moment that lasts a fraction
# of a second (a transfer's first page): a sleep could miss it, and a
# count of polls is no bound of time (3000 polls ran out under the debug
# kernel before a slave had made its file).
poll_until() {
	read -r _now _ </proc/uptime
	_end=$((${_now%.*} + $1 * ${SYNCDEV_TIME_SCALE:-1}))
	shift
	while [ "${_now%.*}" -lt $_end ]; do
		"$@" && return 0
		read -r _now _ </proc/uptime
	done
	"$@"
}

# wait_log FILE ERE: until FILE has a line matching ERE (30 s at most,
# longer on a slow kernel: SYNCDEV_TIME_SCALE).
wait_log() {
	_i=0 _n=$((300 * ${SYNCDEV_TIME_SCALE:-1}))
	while ! grep -Eq "$2" "$1" 2>/dev/null && [ "$_i" -lt "$_n" ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	grep -Eq "$2" "$1"
}

# out_temp PID PATH: a path to what slave PID writes for PATH while it
# writes it, for stat -L: the temporary file (DIR/.NAME.syncdev-*), or
# for an unnamed one (O_TMPFILE: docs/durability.md) the
# slave's descriptor of it, /proc/PID/fd/N, whose link reads "DIR/#INODE
# (deleted)"; nothing while there is none.
out_temp() {
	_od=$(dirname "$2") _ob=$(basename "$2")
	for _ot in "$_od/.$_ob".syncdev-*; do
		[ -e "$_ot" ] && echo "$_ot" && return
	done
	case $_od in /*) ;; *) _od=$PWD/$_od ;; esac
	_od=${_od%/.}
	for _ot in /proc/"$1"/fd/*; do
		case $(readlink "$_ot" 2>/dev/null) in
		"$_od"/\#*" (deleted)") echo "$_ot" && return ;;
		esac
	done
}

# no_output NAME [OUT]: neither OUT (default out) nor a temporary file of
# it (.OUT.syncdev-*) exists: nothing that could be taken for the file.
no_output() {
	_o=${2:-out}
	_d=$(dirname "$_o") _b=$(basename "$_o")
	if [ -e "$_o" ] || ls -A "$_d" | grep -q "^\.$_b\.syncdev-"; then
		fail "$1: no output left" "$(ls -lA "$_d" | grep -e " $_b\$" -e "\.$_b\.syncdev-")"
	else
		pass "$1: no output left"
	fi
	rm -f "$_o" "$_d/.$_b".syncdev-*
}

# in_syscall PID NR: PID is blocked in system call NR (x86-64 numbers:
# 0 read, 1 write, 16 ioctl), so a test knows where a program waits.
in_syscall() {
	read -r _nr _ 2>/dev/null <"/proc/$1/syscall" && [ "$_nr" = "$2" ]
}

# wait_syscall PID NR: until PID is blocked in system call NR (30 s).
wait_syscall() {
	_i=0
	while ! in_syscall "$1" "$2" && [ $_i -lt 300 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	in_syscall "$1" "$2"
}

ACCEPTED='syncdev: master#[0-9]+: accepted connection'
CONNECTED='syncdev: slave#[0-9]+: connected to'

# wait_klog_since MARK ERE: until the kernel logged a line matching ERE
# after MARK (klog_mark; at most 30 s).
wait_klog_since() {
	_i=0
	while [ "$(klog_since "$1" "$2")" -eq 0 ] && [ $_i -lt 300 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ $_i -lt 300 ]
}

# wait_connected MARK: a connection accepted after MARK, i.e. a transfer
# is under way; wait_slave_connected MARK: a slave connected after MARK.
wait_connected() { wait_klog_since "$1" "$ACCEPTED"; }
wait_slave_connected() { wait_klog_since "$1" "$CONNECTED"; }

# check_pair NAME MPID SPID IN OUT: wait for a master and a slave started
# in the background; both exit 0 and OUT is IN (their logs: master.log,
# slave.log, or MLOG SLOG as 6th and 7th arguments).  One still running
# after wait_gone's bound is killed and counts as exit 255 (hung).
check_pair() {
	wait_gone "$2"
	_mrc=$?
	wait_gone "$3"
	_src=$?
	if [ $_mrc -eq 0 ] && [ $_src -eq 0 ] && cmp -s "$4" "$5"; then
		pass "$1"
	else
		fail "$1" "master $_mrc, slave $_src: $(tail -n 2 "${6:-master.log}" "${7:-slave.log}")"
	fi
}

# tool_part TOOL ARG...: a checking tool's PASS/FAIL (and # note) lines;
# a crash is a FAIL too.
tool_part() {
	_out=$("$@" 2>&1)
	_rc=$?
	echo "$_out" | grep -E '^(PASS|FAIL|#) '
	if [ $_rc -ne 0 ] && ! echo "$_out" | grep -q '^FAIL '; then
		fail "$*" "exited $_rc: $(echo "$_out" | tail -n 3)"
	fi
}

# as ROLE CLIENT: ./ROLE runs CLIENT (a course-style client of
# tests/tools), the way a grader runs ./master and ./slave.
as() {
	mkdir -p "$2"
	ln -sf "$(command -v "$2")" "$2/$1"
	echo "$2/$1"
}

# course_run NAME MCLIENT SCLIENT MMETHOD SMETHOD FILE...: the course
# clients as ./master and ./slave on the FILEs in one run (the course's
# command line, one connection per file); both sides exit 0, print the
# course's line, and every copy is identical.  COURSE_* in the
# environment reach both sides (tests/tools/course.h).
course_run() {
	_name=$1 _mc=$2 _sc=$3 _mm=$4 _sm=$5
	shift 5
	_outs="" _i=0 _total=0
	for _f in "$@"; do
		_i=$((_i + 1))
		_outs="$_outs out.$_i"
		_total=$((_total + $(wc -c <"$_f")))
	done
	"$(as master "$_mc")" $# "$@" "$_mm" >master.log 2>&1 &
	_mpid=$!
	# shellcheck disable=SC2086
	"$(as slave "$_sc")" $# $_outs "$_sm" 127.0.0.1 >slave.log 2>&1
	_src=$?
	wait $_mpid
	_mrc=$?
	course_check "$_name" "$@"
	rm -f out.*
}

# course_check NAME FILE...: after a run, exit codes $_mrc and $_src are 0
# and out.1... are the FILEs, byte for byte; the time lines say $_total.
course_check() {
	_name=$1
	shift
	_i=0 _bad=""
	for _f in "$@"; do
		_i=$((_i + 1))
		cmp -s "$_f" "out.$_i" || _bad="$_bad $_f"
	done
	if [ "$_mrc" -eq 0 ] && [ "$_src" -eq 0 ] && [ -z "$_bad" ]; then
		pass "$_name: identical"
		check_time_line "$_name: master line" master.log "$_total"
		check_time_line "$_name: slave line" slave.log "$_total"
	else
		fail "$_name" "master $_mrc, slave $_src, differs:$_bad: $(tail -n 2 master.log slave.log)"
	fi
}

# course_data: the course's data sets, as the files $SMALL (ten small
# files), $Q4097 (four of 4097 bytes), $MID (1 MiB + 3 bytes; half of it
# under a debug kernel, where each page a one-page client moves costs an
# ioctl of tens of ms, but still 3 bytes past a 128-page mapping) and
# $LARGE (the course's 12,022,885 bytes, or less of it under a debug
# kernel, but always $MID more than a buffer).
course_data() {
	SMALL="" Q4097=""
	for _s in $COURSE_SMALL; do
		gen "s$_s" "$_s" 22
		SMALL="$SMALL s$_s"
	done
	for _i in 1 2 3 4; do
		gen "q$_i" 4097 $((30 + _i))
		Q4097="$Q4097 q$_i"
	done
	MID=mid
	_mid=$(bulk 1048579 524291)
	gen mid "$_mid" 23
	LARGE=large
	gen large "$(bulk $COURSE_LARGE $(($(buf_size) + _mid)))" 24
}

# course_pairs NAME MCLIENT SCLIENT FILE...: course_run on the FILEs in
# all four method pairs (master method, slave method); with one_pass only
# in mmap-mmap, the one pair made of the legacy calls alone (a fcntl side
# is read() and write(), which 10-transfer.sh covers there).
course_pairs() {
	_pname=$1 _pm=$2 _ps=$3
	shift 3
	for _cm in fcntl mmap; do
		for _cs in fcntl mmap; do
			if one_pass && [ "$_cm-$_cs" != mmap-mmap ]; then
				continue
			fi
			course_run "$_pname $_cm-$_cs" "$_pm" "$_ps" $_cm $_cs "$@"
		done
	done
}
