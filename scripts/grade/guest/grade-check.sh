# shellcheck shell=sh disable=SC2154
# The checks of one side of a grading case that only the guest can make,
# sourced by grade.sh, one per criterion: exit status (exits) and
# page-descriptor lines in mmap mode (pages); and what the host needs for
# the others: the bytes through the device (device_bytes) and the
# program's output (.out, for its time lines).  The output files (bytes),
# the time lines (time_line) and the kernel log (kernel_log) are judged by
# the host.  Each criterion checked is a "check=CRITERION" line of
# $res/$cname.SIDE.res; each failure a "reason=SIDE: TEXT" line followed by
# "why.CRITERION=SIDE: TEXT"; no reason means the side passed; the last
# line is "end=1" (a file without it is cut short).  Every criterion is
# checked whatever the others found: correct bytes from a program that
# then crashed are recorded as both.

# kv KEY VALUE: a line of the result being written.
kv() { printf '%s=%s\n' "$1" "$2" >>"$rtmp"; }

# checks CRITERION: this criterion applies to this side.
checks() { kv check "$1"; crit_=$1; }

# why TEXT: a failure of the criterion being checked ($failed_ set).
why() {
	failed_=1
	printf 'reason=%s: %s\n' "$side_" "$1" >>"$rtmp"
	printf 'why.%s=%s: %s\n' "$crit_" "$side_" "$1" >>"$rtmp"
}

# last_said FILE: the last line of a program's output as a result value:
# printable ASCII only, 200 characters at most.
last_said() { tail -n 1 "$1" | tr -cd ' -~' | cut -c 1-200; }

# check_exit: how the program ended; 1 when it did not end well.  A
# slave whose directory filled up (room_full) fails with that first.
check_exit() {
	checks exits
	p=$cw/$side_
	first "$p.rc"
	rc=$got
	kv rc "${rc:-none}"
	if [ -f "$p.t1" ]; then
		first "$p.t0"
		t0_=$got
		first "$p.t1"
		span "$t0_" "$got"
		kv secs "$spanned"
	fi
	full_=""
	[ "$side_" = slave ] && room_full && full_=1 &&
		why "disk full: it filled its directory's $((room >> 20)) MiB (3 x the data set, 16 MiB at least)"
	if [ -f "$p.stuck" ]; then
		why "hang: still running after $secs s and after SIGKILL (stuck in the kernel)"
	elif [ -f "$p.hung" ]; then
		why "hang: did not finish within $secs s (killed)"
	elif [ -f "$p.cut" ]; then
		first "$p.cut"
		why "$got"
	elif [ "${rc:-0}" -gt 128 ]; then
		why "crash: killed by signal $((rc - 128)) (SIG$(kill -l $((rc - 128)) 2>/dev/null))"
	elif [ "$rc" = 127 ] || [ "$rc" = 126 ]; then
		why "could not be started (exit $rc): $(last_said "$p.out")"
	elif [ "$rc" != 0 ]; then
		why "exit status $rc: $(last_said "$p.out")"
	else
		[ -z "$full_" ]
		return
	fi
	return 1
}

# span T0 T1: $spanned, T1 - T0 of two uptimes ("S.CC") as "S.CC" (the
# digits without the point are hundredths).
span() {
	a_=${1%.*}${1#*.} b_=${2%.*}${2#*.}
	a_=${a_#"${a_%%[!0]*}"} b_=${b_#"${b_%%[!0]*}"}
	d_=$((${b_:-0} - ${a_:-0}))
	spanned=$((d_ / 100)).$((d_ % 100 / 10))$((d_ % 10))
}

# case_klog: the kernel log since the case's mark, in one pass: its first
# 40 lines as $cw/put/$klog_name and the kernel's own lines as
# $cw/klog.kernel
# (a program can write to /dev/kmsg, but never with the kernel's
# facility, which dmesg -r shows as a priority below 8), both without the
# priority.
case_klog() {
	: >"$cw/put/$klog_name"
	: >"$cw/klog.kernel"
	dmesg -r | awk -v m="$mark" -v head="$cw/put/$klog_name" -v kernel="$cw/klog.kernel" '
		seen {
			own = /^<[0-7]>/
			sub(/^<[0-9]*>/, "")
			if (++n <= 40) print > head
			if (own) print > kernel
		}
		substr($0, length($0) - length(m) + 1) == m { seen = 1 }'
}

# device_bytes: when every module is syncdev.ko (GRADE_STRICT_PAGES=1),
# "device_bytes=N": the bytes this side's sessions moved, from syncdev's
# own kernel lines of the case ("SIDE#I: closed connection with ...: sent
# N bytes, received M bytes", the kernel's facility, which no program can
# log with): the master's sent, the slave's received.
device_bytes() {
	[ "$GRADE_STRICT_PAGES" = 1 ] || return 0
	kv device_bytes "$(awk -v who="$side_" '
		match($0, "syncdev: " who "#[0-9]+: closed connection with .*: sent [0-9]+ bytes, received [0-9]+ bytes$") {
			n = split(substr($0, RSTART, RLENGTH), w, " ")
			s += (who == "master") ? w[n - 4] : w[n - 1]
		}
		END { printf "%.0f", s }' "$cw/klog.kernel")"
}

# check_pages METHOD: in mmap mode the kernel log got page descriptors.
# With syncdev.ko, a legacy dump of an address with nothing mapped counts
# too: it proves the program asked, as the course's modules printed a
# line for any address (docs/legacy.md).
check_pages() {
	[ "$1" = mmap ] || return 0
	checks pages
	pat=$GRADE_PAGE_RE
	[ "$GRADE_STRICT_PAGES" = 1 ] &&
		pat="syncdev: $side_#[0-9]+: page (vaddr=|dump of 0x[0-9a-f]+: nothing mapped there$)"
	n=$(grep -Eic "$pat" "$cw/klog.kernel")
	kv pages "$n"
	[ "$n" -gt 0 ] || why "no page-descriptor line in the kernel log (mmap mode; pattern /$pat/)"
}

# check_side SIDE MM SM: write $cname.SIDE.res and .out in $cw/put/.
check_side() {
	side_=$1 method=$2
	[ "$1" = slave ] && method=$3
	rtmp=$cw/put/$cname.$1.res failed_=""
	: >"$rtmp"
	kv bytes "$total"
	kv files "$nfiles"
	check_exit
	check_pages "$method"
	device_bytes
	if [ -n "$failed_" ]; then kv status fail; else kv status pass; fi
	kv end 1
	head -c 65536 "$cw/$1.out" >"$cw/put/$cname.$1.out"
}

# hand_in: the case's result files ($cw/put/, on this guest's tmpfs) to
# $res under the same names, whatever a program left there (a FIFO would
# block a write, a link would send it elsewhere): one rm and one mv for
# them all.
hand_in() {
	t_=""
	for f_ in "$cw"/put/*; do
		[ -e "$f_" ] && t_="$t_ $res/${f_##*/}"
	done
	[ -n "$t_" ] || return 0
	# shellcheck disable=SC2086 # $t_: the targets, names without a space
	rm -rf $t_
	mv -f "$cw"/put/* "$res/"
}

# hand_over_outputs: the case's output files (regular ones, by the names
# the data set has) to $res/<case>.files/ for the host to compare, each
# at most its data file's size and a byte more, rounded up to 1 MiB (a
# sparse file of a terabyte is as wrong at that length, and the copy
# ends), then the slave's room goes.
hand_over_outputs() {
	rm -rf "$res/$cname.files"
	mkdir -p "$res/$cname.files"
	i=0
	while read -r o z_ _; do
		i=$((i + 1)) w=$o
		uses_prefix && w=out_$i
		# dd in 1 MiB writes: cp writes a 9p file a page at a time, each a
		# round trip to QEMU, many times slower under TCG.
		[ -f "$outdir/$w" ] && ! [ -L "$outdir/$w" ] &&
			dd if="$outdir/$w" of="$res/$cname.files/$o" bs=1M \
				count=$((${z_:-0} / 1048576 + 1)) 2>/dev/null
	done <"$work/sets/$cset"
	room_down
}

# put FILE TARGET: FILE (on this guest's tmpfs) becomes TARGET in the share,
# whatever a program left under that name (a FIFO would block a write, a
# link would send it elsewhere).
put() {
	rm -rf "$2"
	mv -f "$1" "$2"
}
