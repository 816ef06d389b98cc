# shellcheck shell=sh disable=SC2154
# How the grading harness (grade.sh, busybox sh) starts a program under
# test, sourced by it and by tests/vm/85-grade-confine.sh: its command
# line from the rubric's template, in its own session under a watchdog,
# in a mount namespace of its own (confine) and without the capabilities
# that would undo it (capdrop).  Uses $work (the harness's directory),
# $share and $input (hidden from the programs), $cw (the case's
# directory), $cset (its data set), $outdir (the slave's output
# directory) and $secs (the time limit).  The slave starts once the
# master's listener is up (listening).

now() { cut -d ' ' -f 1 /proc/uptime; }

# start_prog SIDE SECS CMD...: run CMD in its own session in the
# background, output to $cw/SIDE.out, exit status to $cw/SIDE.rc; a
# watchdog kills it after SECS ($cw/SIDE.hung) and gives up on it if it
# survives SIGKILL for 10 s ($cw/SIDE.stuck: stuck in the kernel).
start_prog() {
	p=$cw/$1 secs=$2
	shift 2
	now >"$p.t0"
	(
		setsid sh -c 'echo $$ >"$0"; exec "$@"' "$p.pid" "$@" \
			>"$p.out" 2>&1 </dev/null
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

# command_line TEMPLATE METHOD IP FILES...: the template's words with its
# placeholders filled in; the first word (master or slave) is left out.
command_line() {
	t=$1 m=$2 ip=$3
	shift 3
	echo "$t" | sed -e "s|{n}|$#|g" -e "s|{files}|$*|g" -e "s|{file}|$1|g" \
		-e "s|{method}|$m|g" -e "s|{flag}|-${m%"${m#?}"}|g" -e "s|{ip}|$ip|g" \
		-e "s|{prefix}|$(prefix_of "$1")|g" | cut -d ' ' -f 2-
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

# output_name I NAME: the name the slave wrote the I-th file under.
output_name() {
	if uses_prefix; then echo "out_$1"; else echo "$2"; fi
}

# start_side SIDE METHOD IP FILES...: start SIDE's program of the case
# with its command line, confined (the master with its input files, the
# slave in its output directory).
start_side() {
	s=$1 t=$GRADE_CLI
	[ "$s" = slave ] && t=$GRADE_SLAVE_CLI
	shift
	args=$(command_line "$t" "$@")
	set -f
	# shellcheck disable=SC2086,SC2046 # $args, $(confined): words on purpose
	if [ "$s" = master ]; then
		start_prog master "$secs" $(confined master) --bind "$work/data/$cset" -- \
			capdrop --also sys_time "$work/bin/master" $args
	else
		start_prog slave "$secs" $(confined slave) --bind "$outdir" --chdir "$outdir" -- \
			capdrop --also wake_alarm "$work/bin/slave" $args
	fi
	set +f
}

# confined SIDE: confine's words for SIDE's program, but for its files:
# its binary, nothing of the shares, this harness, /run or /opt/syncdev,
# and the device nodes the loaded modules made ($work/devs).
confined() {
	printf 'confine --ro-bind %s/bin/%s --hide /opt/syncdev --hide /run' "$work" "$1"
	printf ' --hide %s' "$share" "$input"
	while read -r d_; do printf ' --dev %s' "$d_"; done <"$work/devs"
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
	# A kernel without IPv6 has no tcp6, and awk gives up on a missing file.
	set -- /proc/net/tcp
	[ ! -e /proc/net/tcp6 ] || set -- "$@" /proc/net/tcp6
	awk 'FNR > 1 && $4 == "0A" { found = 1 } END { exit !found }' "$@" 2>/dev/null
}

# no_user_namespaces: no process may make a user namespace any more (in
# one, a root without capabilities would have them all again, and could
# mount a sysfs of its own); 1 if that cannot be set.
no_user_namespaces() {
	[ -e /proc/sys/user/max_user_namespaces ] || return 0
	echo 0 >/proc/sys/user/max_user_namespaces
}
