# shellcheck shell=sh disable=SC2154
# How the grading harness (grade.sh, busybox sh) starts a program under
# test, sourced by it and by tests/vm/85-grade-confine.sh: its command
# line from the rubric's template, in its own session under a watchdog,
# in a mount namespace of its own (confine) and without the capabilities
# that would undo it (capdrop).  Uses $work (the harness's directory),
# $share and $input (hidden from the programs), $cw (the case's
# directory), $cset (its data set), $outdir (the slave's output
# directory) and $secs (the time limit).  The slave starts once the
# master's listener is up (listening).  Each process the harness starts
# for a case costs tens of milliseconds under TCG: what the shell can do
# itself, it does.

# now: the seconds since boot (/proc/uptime's first field, "S.CC").
now() {
	read -r up_ _ </proc/uptime
	echo "$up_"
}

# first FILE: its first line in $got (empty when there is no FILE).
first() {
	got=""
	# shellcheck disable=SC2034 # got: the caller's
	[ -f "$1" ] && read -r got <"$1"
	return 0
}

# start_prog SIDE SECS CMD...: run CMD in its own session in the
# background, output to $cw/SIDE.out, exit status to $cw/SIDE.rc; a
# watchdog kills it after SECS ($cw/SIDE.hung) and gives up on it if it
# survives SIGKILL for 10 s ($cw/SIDE.stuck: stuck in the kernel).
start_prog() {
	p=$cw/$1 secs=$2
	shift 2
	now >"$p.t0"
	# setsid, a background child of a shell without job control (so not a
	# process group leader), makes its session without a fork: $! is the
	# program's process group.
	(
		setsid "$@" >"$p.out" 2>&1 </dev/null &
		echo $! >"$p.pid"
		wait $!
		echo $? >"$p.rc.tmp"
		now >"$p.t1"
		mv "$p.rc.tmp" "$p.rc"
	) &
	(
		sleep "$secs"
		[ -f "$p.rc" ] && exit 0
		: >"$p.hung"
		kill -KILL -"$(cat "$p.pid")" 2>/dev/null
		sleep 10
		[ -f "$p.rc" ] || : >"$p.stuck"
	) &
	echo $! >"$p.dog"
}

# command_line TEMPLATE METHOD IP FILES...: $args, the template's words
# with its placeholders filled in, one after the other; the first word
# (master or slave) is left out (a template of one word is kept whole).
command_line() {
	args=$1 m=$2 ip=$3
	shift 3
	fill n "$#"
	fill files "$*"
	fill file "${1:-}"
	fill method "$m"
	fill flag "-${m%"${m#?}"}"
	fill ip "$ip"
	case $args in *'{prefix}'*) fill prefix "$(prefix_of "${1:-}")" ;; esac
	case $args in *' '*) args=${args#* } ;; esac
}

# fill NAME VALUE: every {NAME} of $args replaced by VALUE.
fill() {
	f_in=$args args=""
	while :; do
		case $f_in in
		*"{$1}"*)
			args=$args${f_in%%"{$1}"*}$2
			f_in=${f_in#*"{$1}"}
			;;
		*)
			args=$args$f_in
			return 0
			;;
		esac
	done
}

# prefix_of FILE: the {prefix} of a case whose first file is FILE: the
# master's inputs are laid out as DIR/in_1 ... DIR/in_N beside the data
# (prefix_inputs), the slave writes out_1 ... out_N in its directory.
prefix_of() {
	case $1 in */*) echo "${1%/*}/in" ;; *) echo out ;; esac
}

# uses_prefix: the command lines name files by a {prefix}.
uses_prefix() {
	case "$GRADE_CLI $GRADE_SLAVE_CLI" in *'{prefix}'*) ;; *) return 1 ;; esac
}

# prefix_inputs DIR SETFILE: DIR/in_I, a link to the I-th file of the data
# set, for a {prefix} command line.
prefix_inputs() {
	i_=0
	while read -r n_ _; do
		i_=$((i_ + 1))
		ln -f "$1/$n_" "$1/in_$i_" || return 1
	done <"$2"
}

# start_side SIDE METHOD IP FILES...: start SIDE's program of the case
# with its command line, confined (the master with its input files, the
# slave in its output directory).
start_side() {
	s=$1 t=$GRADE_CLI
	[ "$s" = slave ] && t=$GRADE_SLAVE_CLI
	shift
	command_line "$t" "$@"
	confined "$s"
	set -f
	# shellcheck disable=SC2086 # $args, $conf: words on purpose
	if [ "$s" = master ]; then
		start_prog master "$secs" $conf --bind "$work/data/$cset" -- \
			capdrop --also sys_time "$work/bin/master" $args
	else
		start_prog slave "$secs" $conf --bind "$outdir" --chdir "$outdir" -- \
			capdrop --also wake_alarm "$work/bin/slave" $args
	fi
	set +f
}

# confined SIDE: $conf, confine's words for SIDE's program, but for its
# files: its binary, nothing of the shares, this harness, /run or
# /opt/syncdev, the device nodes the loaded modules made ($work/devs), and
# a private /tmp of the case's room ($room bytes).
confined() {
	conf="confine --tmp-size ${room:-67108864} --ro-bind $work/bin/$1 --hide /opt/syncdev"
	conf="$conf --hide /run --hide $share"
	conf="$conf --hide $input"
	while read -r d_; do conf="$conf --dev $d_"; done <"$work/devs"
}

# room_size: $room, the bytes a program of the case may write: three times
# the data set's ($total), 16 MiB at least.
room_size() {
	room=$((total * 3))
	[ "$room" -ge 16777216 ] || room=16777216
}

# room_up: the slave's output directory ($outdir) made anew as a tmpfs of
# its own of $room bytes, so that a program that fills it fails alone: the
# harness's /tmp keeps its space; 1 when it cannot be mounted.
room_up() {
	room_down
	mkdir -p "$outdir" &&
		mount -t tmpfs -o "size=$room,nr_inodes=$((nfiles * 2 + 1024)),mode=0755" \
			tmpfs "$outdir"
}

# room_down: the slave's output directory gone, its tmpfs detached even if
# a stuck program still holds it.
room_down() {
	umount -l "$outdir" 2>/dev/null
	rm -rf "$outdir"
}

# room_full: the slave's output directory has (almost) no block or inode
# left: its program met "No space left on device".
room_full() {
	# shellcheck disable=SC2046 # two numbers
	set -- $(stat -f -c '%a %d' "$outdir" 2>/dev/null)
	[ "${1:-16}" -lt 16 ] || [ "${2:-1}" = 0 ]
}

# device_nodes: the device nodes under /dev whose names confine takes, one
# a line (those the modules make are the difference before and after
# they load).
device_nodes() {
	find /dev \( -type c -o -type b \) 2>/dev/null | grep -E '^/dev/[A-Za-z0-9_.+-][A-Za-z0-9_.+/-]*$' |
		grep -vE '/\.\.?(/|$)|//' | sort
}

# listening: a TCP socket listens in this guest: the graded programs' (or
# their module's) listener; the harness has none (two guests keep in step
# over the control channel).
listening() {
	# A kernel without IPv6 has no tcp6.  The header's fourth word is "st".
	for f_ in /proc/net/tcp /proc/net/tcp6; do
		[ -e "$f_" ] || continue
		while read -r _ _ _ st_ _; do
			[ "$st_" = 0A ] && return 0
		done <"$f_"
	done
	return 1
}

# no_user_namespaces: no process may make a user namespace any more (in
# one, a root without capabilities would have them all again, and could
# mount a sysfs of its own); 1 if that cannot be set.
no_user_namespaces() {
	[ -e /proc/sys/user/max_user_namespaces ] || return 0
	echo 0 >/proc/sys/user/max_user_namespaces
}
