# shellcheck shell=bash disable=SC2154
# Sourced by scripts/grade/grade: the guest boots of one student, one guest
# (scripts/vm/vm-run) and two guests (scripts/vm/vm-pair), each running
# scripts/grade/guest/grade.sh on the staged directory.  A watchdog ends a boot
# whose guest stops making progress (the same case for longer than a case
# can take), so a guest that hangs hard costs one case's time, not the
# whole boot's.  Console logs: STAGE/1vm.log, STAGE/2vm-master.log, ...

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

# watch_boot STAGE VMS LOG... -- CMD...: run CMD; TERM it when the number of
# cases and runs started (the guests' "syncdev-vm: test" lines in LOG...;
# a one-file command line makes a run per file of a case) stays the
# same for STALL seconds (and BOOT_ALLOWANCE more before the first case),
# or when the guests' shares hold more than share_limit; then
# STAGE/stalled.VMS says why.  Progress lines can only end a boot sooner:
# the whole boot's limit (vm-run --timeout) is the host's.
watch_boot() {
	local stage=$1 vms=$2 logs=() last=-1 since=$SECONDS n stall limit cap
	local start=$SECONDS first=""
	shift 2
	while [ "$1" != -- ]; do logs+=("$1"); shift; done
	shift
	read -r stall _ <<<"$(boot_limits "$vms")"
	cap=$(share_limit)
	rm -f "$stage/stalled.$vms"
	"$@" >/dev/null 2>&1 &
	boot_pid=$!
	while kill -0 "$boot_pid" 2>/dev/null; do
		sleep 2
		n=$(head -c "$CONSOLE_MAX" "${logs[@]}" 2>/dev/null | grep -c '^syncdev-vm: test ')
		limit=$stall
		[ "$n" != 0 ] || limit=$((stall + BOOT_ALLOWANCE * VM_TIME_SCALE))
		if [ "$n" != "$last" ]; then
			last=$n since=$SECONDS
			[ "$n" = 0 ] || [ -n "$first" ] || first=$SECONDS
		elif [ $((SECONDS - since)) -gt "$limit" ]; then
			echo "hung: no progress for $limit s" >"$stage/stalled.$vms"
			kill -TERM "$boot_pid" 2>/dev/null
		fi
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
	phase_time "$stage" "boot_$vms" $((${first:-$SECONDS} - start))
	phase_time "$stage" "cases_$vms" $((SECONDS - ${first:-$SECONDS}))
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

# untrusted_guest CMD...: CMD with the limits of a guest that runs a
# student's code (scripts/vm/vm-run): a capped console, no file in a share
# larger than the largest data file and 16 MiB, QEMU as the grader's user.
untrusted_guest() {
	local set size max=0
	for set in $data; do
		while read -r _ size; do
			[ "$size" -le "$max" ] || max=$size
		done < <(set_files "$set")
	done
	# exec: watch_boot runs this in the background, and its TERM must
	# reach the runner itself, which stops its guests, not a shell that
	# would die and leave them running.
	exec env SYNCDEV_CONSOLE_MAX="$CONSOLE_MAX" SYNCDEV_SHARE_MAX=$((max + 16 * 1024 * 1024)) \
		SYNCDEV_APPEND=loglevel=5 "$@"
}

# boot_1vm STAGE: the battery in one guest.  loglevel=5: warnings reach
# the console as they happen, where the host reads them.
boot_1vm() {
	local total t
	read -r _ total <<<"$(boot_limits 1vm)"
	prepare_shares "$1" 1vm
	watch_boot "$1" 1vm "$1/1vm.log" -- untrusted_guest scripts/vm/vm-run \
		--share "$1/share-1vm" --input "$1/input" \
		--timeout "$total" --log "$1/1vm.log" -- \
		sh /opt/syncdev/scripts/grade/guest/grade.sh 1vm
	t=$SECONDS
	import_boot "$1" 1vm
	phase_time "$1" checks $((SECONDS - t))
}

# boot_2vm STAGE: the battery across two guests; the slave's guest gets no
# data.
boot_2vm() {
	local total t
	read -r _ total <<<"$(boot_limits 2vm)"
	prepare_shares "$1" 2vm
	stage_slave_input "$1"
	watch_boot "$1" 2vm "$1/2vm-master.log" "$1/2vm-slave.log" -- \
		untrusted_guest scripts/vm/vm-pair \
		--master-share "$1/share-2vm-master" --slave-share "$1/share-2vm-slave" \
		--master-input "$1/input" --slave-input "$1/input-slave" \
		--timeout "$total" --log-prefix "$1/2vm" -- \
		sh /opt/syncdev/scripts/grade/guest/grade.sh 2vm
	t=$SECONDS
	import_boot "$1" 2vm
	phase_time "$1" checks $((SECONDS - t))
}

# boot_fate STAGE VMS: why the guest(s) of a boot stopped early, or
# nothing when they finished: "hung", "died: <kernel line>", "gave up: ...".
boot_fate() {
	local stage=$1 vms=$2 log p
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

# boot_where STAGE VMS: the case the guest(s) were in at the end.
boot_where() {
	local log w=""
	for log in "$1/$2.log" "$1/$2-master.log" "$1/$2-slave.log"; do
		[ -f "$log" ] && w=$(vm_current_test "$log")
		[ -n "$w" ] && break
	done
	echo "${w##*/}"
}
