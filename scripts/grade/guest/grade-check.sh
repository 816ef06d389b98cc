# shellcheck shell=sh disable=SC2154
# The checks of one side of a grading case that only the guest can make,
# sourced by grade.sh, one per criterion: exit status (exits), the
# "Transmission time" line (time_line) and page-descriptor lines in mmap
# mode (pages).  The output files (bytes) and the kernel log (kernel_log)
# are judged by the host (scripts/grade/grade-verify.sh).  Each criterion checked
# is a "check=CRITERION" line of $res/$cname.SIDE.res; each failure a
# "reason=SIDE: TEXT" line followed by "why.CRITERION=SIDE: TEXT"; no
# reason means the side passed.  Every criterion is checked whatever the
# others found: correct bytes from a program that then crashed are
# recorded as both.

# kv KEY VALUE: a line of the result being written.
kv() { printf '%s=%s\n' "$1" "$2" >>"$rtmp"; }

# checks CRITERION: this criterion applies to this side.
checks() { kv check "$1"; crit_=$1; }

# why TEXT: a failure of the criterion being checked.
why() {
	printf 'reason=%s: %s\n' "$side_" "$1" >>"$rtmp"
	printf 'why.%s=%s: %s\n' "$crit_" "$side_" "$1" >>"$rtmp"
}

# check_exit: how the program ended; 1 when it did not end well.
check_exit() {
	checks exits
	p=$cw/$side_ rc=$(cat "$cw/$side_.rc" 2>/dev/null)
	kv rc "${rc:-none}"
	[ -f "$p.t1" ] && kv secs "$(awk '{ printf "%.2f", $1 - t0 }' t0="$(cat "$p.t0")" "$p.t1")"
	if [ -f "$p.stuck" ]; then
		why "hang: still running after $secs s and after SIGKILL (stuck in the kernel)"
	elif [ -f "$p.hung" ]; then
		why "hang: did not finish within $secs s (killed)"
	elif [ -f "$p.cut" ]; then
		why "$(cat "$p.cut")"
	elif [ "${rc:-0}" -gt 128 ]; then
		why "crash: killed by signal $((rc - 128)) (SIG$(kill -l $((rc - 128)) 2>/dev/null))"
	elif [ "$rc" = 127 ] || [ "$rc" = 126 ]; then
		why "could not be started (exit $rc): $(tail -n 1 "$p.out")"
	elif [ "$rc" != 0 ]; then
		why "exit status $rc: $(tail -n 1 "$p.out" | cut -c 1-200)"
	else
		return 0
	fi
	return 1
}

# The course's sentence, and the strict form: that sentence alone on its
# line.
TIME_RE='[Tt]ransmission time: *[0-9]+(\.[0-9]+)? *ms, *[Ff]ile size: *[0-9]+ *bytes'
TIME_LINE_RE="^[[:space:]]*${TIME_RE}[[:space:]]*\$"

# time_size8: the sizes the course's starter code printed, file_size / 8
# in integer division: "TOTAL8 SUM8", the total's and the sum of each
# file's (from the data set's sizes: a guest may not hold its files).
time_size8() {
	awk -v t="$total" '{ s += int($2 / 8) } END { printf "%d %d\n", int(t / 8), s }' \
		"$work/sets/${cname%%.*}"
}

# time_size_last LINES: the size the last time line gives.
time_size_last() {
	echo "$1" | tail -n 1 | sed 's/.*[Ff]ile size: *\([0-9]*\).*/\1/'
}

# time_size_form LINES: which size the time lines give, by their last or
# by their sum: bytes (the files' total), size/8, or nothing when neither.
time_size_form() {
	last_=$(time_size_last "$1")
	sum_=$(echo "$1" | sed 's/.*[Ff]ile size: *\([0-9]*\).*/\1/' | awk '{ s += $1 } END { printf "%d", s }')
	if [ "$last_" = "$total" ] || [ "$sum_" = "$total" ]; then
		echo bytes
		return
	fi
	# shellcheck disable=SC2046 # two numbers, split on purpose
	set -- $(time_size8)
	for v_ in "$1" "$2"; do
		if [ "$last_" = "$v_" ] || [ "$sum_" = "$v_" ]; then
			echo size/8
			return
		fi
	done
}

# check_time: the course's line, "Transmission time: T ms, File size: B
# bytes", once with the total or once per file adding up to it.  Also
# accepted, unless GRADE_STRICT_TIME=1 (the rubric's strict_time_line):
# text around the sentence ("Slave: Transmission time: ..."), and the
# size the course's starter code printed, the bytes / 8 (of the total, or
# of each file).  "time_form" says which was seen: strict, prefixed,
# size/8 or prefixed+size/8.
check_time() {
	checks time_line
	lines=$(tr -d '\r' <"$cw/$side_.out" | grep -i 'transmission time')
	if [ -z "$lines" ]; then
		why "no 'Transmission time' line in its output"
		return
	fi
	kv time "$(echo "$lines" | tail -n 1)"
	bad=$(echo "$lines" | grep -Ev "$TIME_RE" | head -n 1)
	if [ -n "$bad" ]; then
		why "malformed time line: '$(echo "$bad" | cut -c 1-120)'"
		return
	fi
	tform_=strict
	around_=$(echo "$lines" | grep -Ev "$TIME_LINE_RE" | head -n 1)
	if [ -n "$around_" ] && [ "$GRADE_STRICT_TIME" = 1 ]; then
		why "time line not alone on its line (strict_time_line): '$(echo "$around_" | cut -c 1-120)'"
		return
	fi
	[ -z "$around_" ] || tform_=prefixed
	tsize_=$(time_size_form "$lines")
	if [ -z "$tsize_" ] || { [ "$GRADE_STRICT_TIME" = 1 ] && [ "$tsize_" = size/8 ]; }; then
		why "time line says $(time_size_last "$lines") bytes; the files hold $total${tsize_:+ (strict_time_line: not their size / 8)}"
		return
	fi
	if [ "$tsize_" = size/8 ]; then
		if [ $tform_ = strict ]; then tform_=size/8; else tform_=prefixed+size/8; fi
	fi
	kv time_form $tform_
}

# check_pages METHOD: in mmap mode the kernel log got page descriptors.
check_pages() {
	[ "$1" = mmap ] || return 0
	checks pages
	pat=$GRADE_PAGE_RE
	[ "$GRADE_STRICT_PAGES" = 1 ] && pat="syncdev: $side_#[0-9]+: page vaddr="
	n=$(grep -Eic "$pat" "$cw/klog.kernel")
	kv pages "$n"
	[ "$n" -gt 0 ] || why "no page-descriptor line in the kernel log (mmap mode; pattern /$pat/)"
}

# check_side SIDE MM SM: write $res/$cname.SIDE.res and .out.
check_side() {
	side_=$1 method=$2
	[ "$1" = slave ] && method=$3
	rtmp=$cw/$1.res.tmp
	: >"$rtmp"
	kv bytes "$total"
	# shellcheck disable=SC2086 # $files: words counted on purpose
	kv files "$(echo $files | wc -w)"
	check_exit
	check_time
	check_pages "$method"
	if grep -q '^reason=' "$rtmp"; then kv status fail; else kv status pass; fi
	head -c 8000 "$cw/$1.out" >"$cw/$1.out.head"
	put "$cw/$1.out.head" "$res/$cname.$1.out"
	put "$rtmp" "$res/$cname.$1.res"
}
