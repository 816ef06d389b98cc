# shellcheck shell=bash disable=SC2154
# Sourced by scripts/grade/grade: the guest boots of one student, one guest
# (scripts/vm/vm-run) and two guests (scripts/vm/vm-pair), each running
# scripts/grade/guest/grade.sh on the staged directory.  A watchdog
# (build/gradeclass watch) ends a boot whose guest stops making progress on
# its control channel (a case for longer than a case can take), so a guest
# that hangs hard costs one case's time, not the whole boot's.  Console
# logs: STAGE/1vm.log, STAGE/2vm-master.log, ...; control events beside
# them: STAGE/1vm.control, STAGE/2vm-master.control, ...

boot_pid=""
kill_boot() { [ -z "$boot_pid" ] || kill -TERM "$boot_pid" 2>/dev/null; }

# case_count: the cases of one boot.
case_count() { echo $(($(wc -w <<<"$data") * $(wc -w <<<"$methods"))); }

# boot_limits [VMS]: "STALL TOTAL": seconds one case may take in the guest
# (both programs' limits and grace periods, copying the data set in and
# the outputs out, and across two guests the barriers, which wait up to
# two minutes for the other guest), and a whole boot.
boot_limits() {
	local extra=150
	[ "${1:-2vm}" = 2vm ] || extra=60
	local stall=$(((timeout * 3 + extra) * VM_TIME_SCALE))
	echo "$stall $((stall * $(case_count) / 2 + (300 + BOOT_ALLOWANCE) * VM_TIME_SCALE))"
}

# BOOT_ALLOWANCE: seconds a guest may take to reach its first case, beyond
# a case's: under TCG on a loaded host (several students side by side,
# other jobs) a boot alone can take minutes.
BOOT_ALLOWANCE=600

# case_files: the files of each case of one boot, in the host's order
# (data sets outer, method pairs inner), comma-separated.
case_files() {
	local set m n list=""
	for set in $data; do
		n=$(set_files "$set" | wc -l)
		for m in $methods; do list+=${list:+,}$n; done
	done
	echo "$list"
}

# control_dir: a fresh directory of the caller's for the guests' control
# sockets: outside STAGE, whose path can be longer than a socket's.
control_dir() { mktemp -d "${TMPDIR:-/tmp}/syncdev-ctl.XXXXXX"; }

# watch_boot STAGE VMS CTL GUEST... -- CMD...: run CMD under
# build/gradeclass watch, which keeps each guest's control events (socket
# CTL/GUEST.sock) in STAGE/GUEST.control and TERMs CMD when no case began
# within STALL + BOOT_ALLOWANCE seconds or a case made no progress for
# STALL seconds (boot_limits), saying why in STAGE/stalled.VMS; and TERM
# it when the guests' shares hold more than share_limit.  Only the
# harness's events count as progress, and their number is bounded by the
# host's case list: guest text can end a boot sooner, never later.
watch_boot() {
	local stage=$1 vms=$2 ctl=$3 guests=() stall cap qu=()
	shift 3
	while [ "$1" != -- ]; do guests+=(--guest "$1"); shift; done
	shift
	read -r stall _ <<<"$(boot_limits "$vms")"
	cap=$(share_limit)
	rm -f "$stage/stalled.$vms"
	if [ -n "${SYNCDEV_QEMU_USER:-}" ] && [ "$(id -u)" = 0 ]; then
		qu=(--qemu-user "$(id -u "$SYNCDEV_QEMU_USER"):$(id -g "$SYNCDEV_QEMU_USER")")
	fi
	build/gradeclass watch --stage "$stage" --vms "$vms" --control-dir "$ctl" \
		"${guests[@]}" --files "$(case_files)" --stall "$stall" \
		--boot $((stall + BOOT_ALLOWANCE * VM_TIME_SCALE)) "${qu[@]}" --quiet -- "$@" &
	boot_pid=$!
	while kill -0 "$boot_pid" 2>/dev/null; do
		sleep 2
		if [ "$(share_usage "$stage" "$vms")" -gt "$cap" ]; then
			echo "stopped: it wrote more than $cap bytes to its shared directory" >"$stage/stalled.$vms"
			kill -TERM "$boot_pid" 2>/dev/null
		elif [ "$(share_usage "$stage" "$vms" --inodes)" -gt "$SHARE_FILES_MAX" ]; then
			echo "stopped: it made more than $SHARE_FILES_MAX files in its shared directory" >"$stage/stalled.$vms"
			kill -TERM "$boot_pid" 2>/dev/null
		fi
	done
	wait "$boot_pid"
	echo $? >"$stage/boot.$vms.rc"
	boot_pid=""
	rm -rf "$ctl"
}

# phase_time STAGE PHASE SECONDS: SECONDS more spent in PHASE.
phase_time() { echo "$2 $3" >>"$1/times"; }

# write_times STAGE: times.csv, the seconds each phase took in all.
write_times() {
	local p
	echo "phase,seconds"
	[ -f "$1/times" ] || return 0
	for p in staging boot_1vm cases_1vm boot_2vm cases_2vm checks total; do
		awk -v p="$p" '$1 == p { s += $2; n++ } END { if (n) print p "," s }' "$1/times"
	done
}

# times_text STAGE: the time line of report.md.
times_text() {
	write_times "$1" | awk -F, 'NR > 1 { printf "%s%s %s s", sep, $1, $2; sep = ", " }'
}

# untrusted_env: env's assignments for a guest that runs a student's code
# (scripts/vm/vm-run): a capped console, no file in a share larger than
# the largest data file and 16 MiB, warnings on the console (loglevel=5)
# as they happen, where the host reads them.
untrusted_env() {
	local set size max=0
	for set in $data; do
		while read -r _ size; do
			[ "$size" -le "$max" ] || max=$size
		done < <(set_files "$set")
	done
	printf '%s\n' "SYNCDEV_CONSOLE_MAX=$CONSOLE_MAX" \
		"SYNCDEV_SHARE_MAX=$((max + 16 * 1024 * 1024))" SYNCDEV_APPEND=loglevel=5
}

# boot_1vm STAGE: the battery in one guest.  The watcher runs the runner
# itself (env execs it), so that its TERM reaches the runner, which stops
# its guest.
boot_1vm() { boot_again_once "$1" 1vm run_1vm; }

run_1vm() {
	local total t ctl envs=()
	read -r _ total <<<"$(boot_limits 1vm)"
	prepare_shares "$1" 1vm
	mapfile -t envs < <(untrusted_env)
	ctl=$(control_dir)
	watch_boot "$1" 1vm "$ctl" 1vm -- env "${envs[@]}" scripts/vm/vm-run \
		--share "$1/share-1vm" --input "$1/input" --control "$ctl/1vm.sock" \
		--timeout "$total" --log "$1/1vm.log" -- \
		sh /opt/syncdev/scripts/grade/guest/grade.sh 1vm
	t=$SECONDS
	import_boot "$1" 1vm
	phase_time "$1" checks $((SECONDS - t))
}

# boot_2vm STAGE: the battery across two guests; the slave's guest gets no
# data.
boot_2vm() { boot_again_once "$1" 2vm run_2vm; }

run_2vm() {
	local total t ctl envs=()
	read -r _ total <<<"$(boot_limits 2vm)"
	prepare_shares "$1" 2vm
	stage_slave_input "$1"
	mapfile -t envs < <(untrusted_env)
	ctl=$(control_dir)
	watch_boot "$1" 2vm "$ctl" 2vm-master 2vm-slave -- env "${envs[@]}" scripts/vm/vm-pair \
		--master-share "$1/share-2vm-master" --slave-share "$1/share-2vm-slave" \
		--master-input "$1/input" --slave-input "$1/input-slave" --control "$ctl/2vm" \
		--timeout "$total" --log-prefix "$1/2vm" -- \
		sh /opt/syncdev/scripts/grade/guest/grade.sh 2vm
	t=$SECONDS
	import_boot "$1" 2vm
	phase_time "$1" checks $((SECONDS - t))
}

# boot_again_once STAGE VMS RUN: RUN STAGE, and once more when a guest of
# the boot never started its battery (boot_unstarted): a guest that came
# up without its devices or shares under a loaded host is no fault of the
# student's.  The first try's console logs stay as GUEST.first.log, and
# STAGE/retried.VMS says which guest started nothing.
boot_again_once() {
	local g
	"$3" "$1"
	g=$(boot_unstarted "$1" "$2") || return 0
	echo "the guest $g started no case: booted again" >"$1/retried.$2"
	for g in $(control_names "$2"); do
		[ ! -f "$1/$g.log" ] || mv -f "$1/$g.log" "$1/$g.first.log"
	done
	"$3" "$1"
}

# control_names VMS: the guests of a boot as their console logs and
# control files are named.
control_names() {
	case $1 in 1vm) echo 1vm ;; 2vm) echo 2vm-master 2vm-slave ;; esac
}

# boot_unstarted STAGE VMS: print the first guest of the boot that sent
# nothing on its control channel (no begin, not even the "done" of a
# harness that gave up: its harness never ran), left no aborted file, and
# whose console shows no kernel problem (a student's module that panics at
# load is the student's); status 1 when every guest started.  The control
# files are the host's own (build/gradeclass watch).
boot_unstarted() {
	local g role
	for g in $(control_names "$2"); do
		role=${g#2vm-}
		[ "$role" != 1vm ] || role=vm
		[ -f "$1/$g.control" ] && grep -qv '^ignored ' "$1/$g.control" && continue
		[ ! -f "$1/results/$2/aborted.$role" ] || continue
		[ ! -f "$1/$g.log" ] || [ -z "$(vm_log_problems "$1/$g.log")" ] || continue
		echo "$g"
		return 0
	done
	return 1
}

# boot_fate STAGE VMS: why the guest(s) of a boot stopped early, or
# nothing when they finished: "hung", "died: <kernel line>", "gave up: ...".
boot_fate() {
	local stage=$1 vms=$2 log p
	if [ -f "$stage/retried.$vms" ] && p=$(boot_unstarted "$stage" "$vms"); then
		echo "guest $p started no case, on two boots"
		return
	fi
	if [ -f "$stage/stalled.$vms" ]; then
		echo "guest $(cat "$stage/stalled.$vms")"
		return
	fi
	for log in "$stage/$vms.log" "$stage/$vms-master.log" "$stage/$vms-slave.log"; do
		[ -f "$log" ] || continue
		[ -n "$(vm_exit_status "$log")" ] && continue
		p=$(vm_log_problems "$log" | grep -m 1 -E 'Kernel panic|BUG:|Oops|general protection' |
			sed 's/^\[ *[0-9.]*\] //')
		echo "guest $(basename "$log" .log) died${p:+: $p}"
		return
	done
	for p in "$stage/results/$vms"/aborted.*; do
		[ -f "$p" ] && { echo "guest gave up: $(cat "$p")"; return; }
	done
}

# boot_where STAGE VMS: the case the guest(s) were in at the end: the last
# case begun on the control channel (STAGE/*.control), named from the
# host's own list.
boot_where() {
	local f k=0 n i=0 set m
	for f in "$1/$2.control" "$1/$2-master.control" "$1/$2-slave.control"; do
		[ -f "$f" ] || continue
		n=$(awk '$1 == "begin" && $2 ~ /^[0-9]+$/ { k = $2 } END { print k + 0 }' "$f")
		[ "$n" -le "$k" ] || k=$n
	done
	for set in $data; do
		for m in $methods; do
			i=$((i + 1))
			[ "$i" != "$k" ] || { echo "$set.$m"; return; }
		done
	done
}
