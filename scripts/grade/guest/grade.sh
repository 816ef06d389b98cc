#!/bin/sh
# The grading battery, run in the guest by scripts/grade/grade (busybox sh).
#
#   sh grade.sh 1vm     master and slave in this guest, over 127.0.0.1
#   sh grade.sh 2vm     two guests (scripts/vm/vm-pair): this one is the
#                       $SYNCDEV_ROLE side; the other runs the same script
#
# The host gives everything read-only at $SYNCDEV_INPUT (scripts/grade/grade
# fills it): bin/master and bin/slave, modules/*.ko (loaded in that order,
# retried until they all load or none more does), grade.conf (the data
# sets, method pairs, time limit, page-descriptor pattern, command-line
# templates), sets/SET (each data set's file names and sizes) and, where
# this guest runs a master, data/SET/ (the files, made by the host from a
# seed the guest never sees; a two-guest slave's guest has none).  For each
# case (data set x method pair) it runs the command lines of the templates
# GRADE_CLI and GRADE_SLAVE_CLI, by default the 2020 course's
#
#   master {n} {files} {method}          master N f1 ... fN fcntl|mmap
#   slave {n} {files} {method} {ip}      slave N o1 ... oN fcntl|mmap IP
#
# ({file}: one file; a data set of several is then one run per file;
# {flag}: -f or -m), the master first, the slave once a TCP listener is up
# (at most 10 s later), each in its own session under its own time limit.
# Each program runs in a mount namespace of its own (confine): a private
# /tmp holding only its binary and its files (the master its input, the
# slave its output directory, its working directory; the /tmp and the
# output directory each a tmpfs of the case's room, three times the data
# set and 16 MiB at least, so that a program that fills its disk fails its
# case alone, "disk full", and the harness keeps its own), nothing of the
# shares, this harness or /opt/syncdev, a /dev without console, serial
# ports or kernel log, /sys and /proc/sys read-only; without the
# capabilities that would undo that or reach another process (capdrop,
# each side without one more, so that neither may reach into the other);
# and no user namespace can be made.
#
# Case progress goes only to the control channel ($SYNCDEV_CONTROL, a port
# only the host reads and no program can open): "begin K", "run K R",
# "end K", "done", K the case's index in this boot's list (data sets outer,
# method pairs inner).  Two guests keep in step over it, never over the
# network the programs share: each also writes "ready K" (set to start),
# "listening K R" (the master's listener of run R is up) and "status K R
# ok|failed" (how its program of run R ended), and the host writes each
# event of one guest but begin and run to the other's port.  It writes
# what only the guest can see to $SYNCDEV_SHARE/results/<1vm|2vm>/:
# <case>.<side>.res ("key=value" lines, the last "end=1"), <case>.<side>.out
# (the first 64 KiB of the program's output), <case>.<guest>.klog (the
# kernel lines logged during the case) and, from the slave's side,
# <case>.files/ (the output files).  The host judges the output files, the
# time lines and the kernel log itself; nothing here decides them.  Results
# reach the host as each case ends.
set -u
vms=${1:?usage: grade.sh 1vm|2vm}
input=${SYNCDEV_INPUT:?no input directory: run through scripts/grade/grade}
share=${SYNCDEV_SHARE:?no shared directory: run through scripts/grade/grade}
role=${SYNCDEV_ROLE:-}
# The control channel's device: from the environment, or from the boot's
# settings when /init did not export it.
control=${SYNCDEV_CONTROL:-$(sed -n "s/^SYNCDEV_CONTROL=['\"]*\([^'\"]*\).*/\1/p" /run/syncdev/env 2>/dev/null)}
scale=${SYNCDEV_TIME_SCALE:-1}
# shellcheck source=/dev/null
. "$input/grade.conf"
: "${GRADE_CLI:=master {n} {files} {method}}" "${GRADE_SLAVE_CLI:=slave {n} {files} {method} {ip}}"
res=$share/results/$vms
work=/tmp/grade
# The slave's output directory (only the slave's namespace shows it).
outdir=$work/slave/out
mkdir -p "$res" "$work/bin" "$work/data" "$work/slave"
mkfifo "$work/nap" 2>/dev/null
k=0 peer_done=0 pl="" pl_part=""

# tell LINE: LINE to the control channel (descriptor 9, open for the whole
# battery; confine closes it for the programs), written before what it
# announces; nothing when there is none.
tell() {
	[ -n "$control" ] || return 0
	printf '%s\n' "$1" 2>/dev/null >&9
	return 0
}

# open_control: the control channel raw (a line arrives as written) on
# descriptor 9; with two guests, a reader that appends what the host
# relays of the other guest to $work/peer, read on descriptor 8.
open_control() {
	[ -n "$control" ] || return 0
	stty -F "$control" raw -echo 2>/dev/null
	exec 9<>"$control" || return 1
	[ "$vms" = 2vm ] || return 0
	: >"$work/peer"
	cat <&9 >>"$work/peer" 2>/dev/null &
	exec 8<"$work/peer"
}

# peer_next: the other guest's next whole event (in $pl); 1 when none has
# come yet (a part of one is kept for the next call).
peer_next() {
	if IFS= read -r pl_ <&8; then
		pl=$pl_part$pl_ pl_part=""
		return 0
	fi
	pl_part=$pl_part$pl_
	return 1
}

# peer_wait PATTERN SECS: until the other guest's event matches PATTERN
# (in $pl), checked every 0.05 s for SECS seconds (0: only what has come);
# 1 when it has not come, 2 when the other guest is done (gave up).  Its
# events come in the order of the battery both guests run, so none that
# is waited for later is passed over.
peer_wait() {
	n_=0
	while [ "$peer_done" = 0 ]; do
		while peer_next; do
			[ "$pl" = "done" ] && peer_done=1 && return 2
			# shellcheck disable=SC2254 # PATTERN: a pattern on purpose
			case $pl in $1) return 0 ;; esac
		done
		[ $n_ -lt $(($2 * 20)) ] || return 1
		nap 0.05
		n_=$((n_ + 1))
	done
	return 2
}

# side SIDE: does this guest run SIDE (master|slave) of the case?
side() { [ "$vms" = 1vm ] || [ "$role" = "$1" ]; }

# barrier EVENT SECS: tell EVENT and wait up to SECS for the other guest's
# (2vm only); 1 when it has not come or the other guest gave up.
barrier() {
	[ "$vms" = 2vm ] || return 0
	tell "$1"
	peer_wait "$1" "$2"
}

# load_modules: insmod modules/*.ko in modules/order, retrying those that
# fail (a module loaded before what it needs) while others still load.
load_modules() {
	left=$(cat "$work/modules/order")
	while [ -n "$left" ]; do
		again="" progress=0
		for ko in $left; do
			if out=$(insmod "$work/modules/$ko" 2>&1); then
				progress=1
				echo "$ko" >>"$work/loaded"
			else
				again="$again $ko"
				echo "insmod $ko: $out" >"$work/insmod.err"
			fi
		done
		[ "$progress" = 1 ] || return 1
		left=$again
	done
}

# unload_modules: rmmod what load_modules loaded, last first.
unload_modules() {
	[ -f "$work/loaded" ] || return 0
	for ko in $(sed '1!G;h;$!d' "$work/loaded"); do
		out=$(rmmod "${ko%.ko}" 2>&1) || echo "rmmod ${ko%.ko}: $out"
	done
}

# case_files SET: $files, the data set's file paths in this guest in the
# set's order, $outs their names, $nfiles their number and $total their
# bytes; where this guest runs a master, the files are copied from the
# input first (only the master's namespace shows them).
case_files() {
	d=$work/data/$1 files="" outs="" nfiles=0 total=0
	if [ -d "$input/data/$1" ] && ! [ -d "$d" ]; then
		cp -r "$input/data/$1" "$d.tmp" &&
			{ ! uses_prefix || prefix_inputs "$d.tmp" "$work/sets/$1"; } &&
			mv "$d.tmp" "$d"
	fi
	while read -r n_ z_ _; do
		files="$files $d/$n_" outs="$outs $n_"
		nfiles=$((nfiles + 1)) total=$((total + ${z_:-0}))
	done <"$work/sets/$1"
	files=${files# }
}

# case_timeout SET: $ctime, the seconds each program of a case may run.
case_timeout() {
	ctime=$GRADE_TIMEOUT
	case $1 in big|64M) ctime=$((ctime * 3)) ;; esac
	ctime=$((ctime * scale))
}

# nap SECS: wait SECS (a fraction too) without starting a process, which
# under TCG takes tens of milliseconds: a read that times out on a FIFO no
# one writes to (sleep where there is none).  A program that writes to it
# only makes its own case's waits shorter.
nap() {
	if [ -p "$work/nap" ]; then
		# shellcheck disable=SC3045,SC2034 # busybox sh's read has -t
		read -r -t "$1" nap_ <>"$work/nap" 2>/dev/null
	else
		sleep "$1"
	fi
	return 0
}

# finished SIDE: the program ended (or is stuck for good).
finished() { [ -f "$cw/$1.rc" ] || [ -f "$cw/$1.stuck" ]; }

# reap SIDE: stop its watchdog and whatever the program left running.
reap() {
	first "$cw/$1.dog"
	[ -n "$got" ] && kill "$got" 2>/dev/null
	first "$cw/$1.pid"
	[ -n "$got" ] && kill -KILL -"$got" 2>/dev/null
	return 0
}

# cut_short SIDE WHY: the other side failed; end this one once it stops
# making progress (a slave's output growing; a master has none without its
# slave) for 2 s, instead of waiting for its whole time limit.  Looked at
# every 0.05 s: a side that fails at once is seen at once.
cut_short() {
	last="" still=0
	while ! finished "$1" && [ $still -lt 40 ]; do
		size=""
		[ "$1" = slave ] && size=$(du -sk "$outdir" 2>/dev/null)
		if [ -n "$size" ] && [ "$size" != "$last" ]; then
			last=$size still=0
		else
			still=$((still + 1))
		fi
		nap 0.05
	done
	finished "$1" && return
	echo "$2" >"$cw/$1.cut"
	first "$cw/$1.pid"
	kill -KILL -"$got" 2>/dev/null
	n=0
	while ! finished "$1" && [ $n -lt 200 ]; do
		nap 0.05
		n=$((n + 1))
	done
}

# wait_listener: until the programs' TCP socket listens (the master's
# accept), 10 s at most, or the master has ended; the slave starts then
# either way.  Looked at every 0.05 s: most masters listen within a tenth
# of a second.
wait_listener() {
	n=0
	while [ $n -lt $((200 * scale)) ] && ! listening && ! finished master; do
		nap 0.05
		n=$((n + 1))
	done
}

# wait_no_listener: until the last case's listener is gone (10 s at most),
# so that wait_listener sees this case's master, not a listener about to
# close under a slave that has just started.  A listener that outlives
# that (a module that listens from its load on) is not waited for again.
# syncdev's own lingering listener is not waited for: a new master takes
# it over and a slave that connects early waits in its backlog, as with
# the course's module, which listened from insmod on.
wait_no_listener() {
	[ "$GRADE_STRICT_PAGES" = 1 ] && return 0
	[ -f "$work/listener-stays" ] && return 0
	n=0
	while listening; do
		if [ $n -ge $((200 * scale)) ]; then
			: >"$work/listener-stays"
			return 0
		fi
		nap 0.05
		n=$((n + 1))
	done
}

# run_single SET MM SM FILES...: both programs in this guest.
run_single() {
	mm=$2 sm=$3 secs=$ctime
	shift 3
	start_side master "$mm" "" "$@"
	wait_listener
	# shellcheck disable=SC2086
	start_side slave "$sm" 127.0.0.1 $outs
	while ! finished master && ! finished slave; do nap 0.05; done
	if finished slave && first "$cw/slave.rc" && [ "$got" != 0 ]; then
		cut_short master "the slave failed; the master was stopped 2 s later"
	elif finished master && first "$cw/master.rc" && [ "$got" != 0 ]; then
		cut_short slave "the master failed; the slave was stopped after 2 s without output"
	fi
	while ! finished master || ! finished slave; do nap 0.05; done
	reap master
	reap slave
}

# run_pair_side SET MM SM FILES...: this guest's side of run $ri of a
# two-VM case.  The slave starts once the master's guest says its
# listener is up; each guest tells how its program ended ("status") and
# learns the other's ($peer_st); a guest whose program still runs when
# the other's failed stops it as run_single does.  1 when the other guest
# is lost.
run_pair_side() {
	secs=$ctime mm=$2 sm=$3 peer_st=""
	shift 3
	if [ "$role" = master ]; then
		start_side master "$mm" "" "$@"
		wait_listener
		tell "listening $k $ri"
	else
		peer_wait "listening $k $ri" $((60 * scale)) || return 1
		# shellcheck disable=SC2086
		start_side slave "$sm" "$SYNCDEV_PEER" $outs
	fi
	while ! finished "$role"; do
		peer_wait "status $k $ri *" 0
		case $? in
		0) peer_st=${pl##* } ;;
		2) peer_st=gone ;;
		*) nap 0.05 && continue ;;
		esac
		[ "$peer_st" = ok ] || cut_short "$role" "$(cut_why "$role")"
		break
	done
	while ! finished "$role"; do nap 0.05; done
	st=ok
	run_ok "$role" || st=failed
	tell "status $k $ri $st"
	reap "$role"
	case $peer_st in ok | failed) return 0 ;; gone) return 1 ;; esac
	peer_wait "status $k $ri *" $((secs + 60 * scale)) || return 1
	peer_st=${pl##* }
}

# cut_why SIDE: why SIDE was stopped when the other side failed.
cut_why() {
	if [ "$1" = master ]; then
		echo "the slave failed; the master was stopped 2 s later"
	else
		echo "the master failed; the slave was stopped after 2 s without output"
	fi
}

# one_file_runs: the command line takes one file ({file}, no {files})
# and the case's data set has several.
one_file_runs() {
	case $GRADE_CLI in *'{files}'*) return 1 ;; *'{file}'*) ;; *) return 1 ;; esac
	[ "$nfiles" -gt 1 ]
}

# run_ok SIDE: SIDE's program of the last run ended well.
run_ok() {
	first "$cw/$1.rc"
	[ "$got" = 0 ] && ! [ -f "$cw/$1.hung" ] &&
		! [ -f "$cw/$1.stuck" ] && ! [ -f "$cw/$1.cut" ]
}

# keep_run: add the last run of this guest's sides to the case: its
# output after the earlier runs', its start if it was the first.
keep_run() {
	for s in master slave; do
		side "$s" || continue
		cat "$cw/$s.out" >>"$cw/$s.all" 2>/dev/null
		[ -f "$cw/$s.t0.first" ] || cp "$cw/$s.t0" "$cw/$s.t0.first"
		rm -f "$cw/$s.out" "$cw/$s.t0"
	done
}

# forget_run: before the next run, what the last left that would read
# as the new one's (its end, exit status, process group, watchdog) goes,
# and the master's listener.
forget_run() {
	for s in master slave; do
		rm -f "$cw/$s.rc" "$cw/$s.t1" "$cw/$s.pid" "$cw/$s.dog"
	done
	side master && wait_no_listener
}

# each_file RUNNER SET MM SM FILES...: a one-file command line on a data
# set of several files: one run of both programs per file (RUNNER:
# run_single or run_pair_side), in the data set's order, until one fails
# (each guest learns how the other's run ended).  The case is then judged on
# what the runs left together: the output files, each program's output of
# every run (a time line per file, adding up to the total), the exit of
# the last run, the time from the first start to the last end.
each_file() {
	runner=$1 i=0
	shift
	for f in $files; do
		i=$((i + 1)) ri=$i outs=${f##*/} peer_st=ok
		if [ $i != 1 ]; then
			tell "run $k $i"
			forget_run
		fi
		"$runner" "$1" "$2" "$3" "$f" || return 1
		st=ok
		for s in master slave; do
			side "$s" && ! run_ok "$s" && st=failed
		done
		keep_run
		[ "$st" = ok ] && [ "$peer_st" = ok ] || break
	done
	for s in master slave; do
		side "$s" || continue
		mv "$cw/$s.all" "$cw/$s.out"
		mv "$cw/$s.t0.first" "$cw/$s.t0"
	done
}

. "$SYNCDEV_ROOT/scripts/grade/guest/grade-check.sh"
. "$SYNCDEV_ROOT/scripts/grade/guest/grade-launch.sh"

# run_case SET MM SM: one case; its results go to $res.
run_case() {
	# shellcheck disable=SC2034 # cset: start_side's (grade-launch.sh)
	cname=$1.$2-$3 cset=$1 k=$((k + 1))
	tell "begin $k"
	cw=$work/case
	rm -rf "$cw"
	mkdir -p "$cw/put"
	case_files "$1"
	case_timeout "$1"
	room_size
	if side slave && ! room_up; then
		give_up "the slave's directory of $cname could not be mounted"
		exit 0
	fi
	side master && wait_no_listener
	# The case's kernel lines are those after this mark (a count of lines
	# would go wrong once the ring buffer wraps).  No program can write to
	# the kernel log (confine); it goes there at debug level, not to the
	# console, and names no case: the host never reads it.
	mark="syncdev-grade: klog cut $k"
	echo "<7>$mark" >/dev/kmsg
	barrier "ready $k" $((120 * scale)) || return 1
	ri=1
	if one_file_runs; then
		if [ "$vms" = 1vm ]; then
			each_file run_single "$@"
		else
			each_file run_pair_side "$@" || return 1
		fi
	elif [ "$vms" = 1vm ]; then
		# shellcheck disable=SC2086
		run_single "$@" $files
	else
		# shellcheck disable=SC2086
		run_pair_side "$@" $files || return 1
	fi
	klog_name=$cname.klog
	[ "$vms" = 2vm ] && klog_name=$cname.$role.klog
	case_klog
	for s in master slave; do
		side "$s" && check_side "$s" "$2" "$3"
	done
	hand_in
	side slave && hand_over_outputs
	if [ "$vms" = 2vm ]; then
		barrier "end $k" $((ctime + 60 * scale)) || return 1
	else
		tell "end $k"
	fi
	! [ -f "$cw/master.stuck" ] && ! [ -f "$cw/slave.stuck" ]
}

# give_up WHY: no more cases in this guest; the host marks the rest.
give_up() {
	echo "$1" >"$work/aborted"
	put "$work/aborted" "$res/aborted.${role:-vm}"
	echo "grade: $1"
	tell "done"
}

cp -r "$input/sets" "$input/modules" "$work/"
if [ -f "$input/bin/master" ]; then
	cp "$input/bin/master" "$input/bin/slave" "$work/bin/"
	chmod +x "$work/bin/master" "$work/bin/slave"
fi
if [ "$vms" = 2vm ] && [ -z "$control" ]; then
	give_up "two guests keep in step over the control channel, and there is none"
	exit 0
fi
if ! open_control; then
	give_up "the control channel $control could not be opened"
	exit 0
fi
if ! no_user_namespaces; then
	give_up "user namespaces could not be turned off"
	exit 0
fi
device_nodes >"$work/devs.before"
if ! load_modules; then
	give_up "module did not load: $(cat "$work/insmod.err")"
	exit 0
fi
device_nodes | grep -vxF -f "$work/devs.before" >"$work/devs"
# The course's choices of what a legacy SEND returns and what a legacy
# read() takes (the rubric's legacy_send_result and legacy_read):
# syncdev.ko takes them as parameters.  And the course's module listened
# from insmod on: syncdev.ko's listener lingers for the battery (10 min
# after its last master), not 2 s, so that a slave started on the
# previous case's listener never meets it closing before this case's
# master takes it over.
for choice in "legacy_send_result=${GRADE_LEGACY_SEND:-}" "legacy_read=${GRADE_LEGACY_READ:-}" \
	listen_linger_ms=600000; do
	param=/sys/module/syncdev/parameters/${choice%%=*}
	if [ -n "${choice#*=}" ] && [ -w "$param" ] &&
		! echo "${choice#*=}" >"$param" 2>/dev/null; then
		give_up "syncdev.ko refused $choice"
		exit 0
	fi
done
for set in $GRADE_DATA; do
	for pair in $GRADE_METHODS; do
		if ! run_case "$set" "${pair%-*}" "${pair#*-}"; then
			if [ -f "$cw/master.stuck" ] || [ -f "$cw/slave.stuck" ]; then
				give_up "a program of $cname could not be killed (stuck in the kernel)"
			else
				give_up "lost the other guest in $cname"
			fi
			exit 0
		fi
	done
	rm -rf "${work:?}/data/$set"
done
unload_modules >"$work/unload" 2>&1
put "$work/unload" "$res/unload.${role:-vm}"
echo "grade: done"
tell "done"
