#!/bin/sh
# The two cluster engines of docs/grading-shards.md, for real, on this machine: a
# class of three (copies of our programs, the smallest case) graded in one
# run, then in two shards through GNU parallel and through Slurm (a
# one-node cluster started here: its own slurm.conf, state, spool, ports
# and munged, stopped at the end), scripts/grade/grade.sbatch as an array
# of 2 and the merge job after it (--dependency=afterany); each merged
# summary must equal the one run's.  Installs parallel, slurm-wlm and
# munge when missing (scripts/deps); Slurm needs root.
. tests/lib.sh

tmp=$(mktemp -d)
# Run as root, the grader's QEMU runs as its own user, which must reach
# the outputs.
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT

# --- the file the docs show is the file shipped ---------------------------
awk '/^With a Slurm job array: `scripts\/grade\/grade\.sbatch`/ { want = 1; next }
	want && /^```sh$/ { on = 1; next }
	on && /^```$/ { exit }
	on { print }' docs/grading-shards.md >"$tmp/doc.sbatch"
check_same "docs/grading-shards.md shows scripts/grade/grade.sbatch as it is" \
	scripts/grade/grade.sbatch "$tmp/doc.sbatch"
check_output "grade.sbatch run outside the repository says where to submit it from" \
	'^grade.sbatch: submit it from the syncdev repository$' \
	sh -c 'cd "$1" && SLURM_ARRAY_TASK_ID=1 exec bash "$2"' - "$tmp" "$PWD/scripts/grade/grade.sbatch"
check_exit "... exit 2" 2 sh -c 'cd "$1" && SLURM_ARRAY_TASK_ID=1 exec bash "$2"' - "$tmp" "$PWD/scripts/grade/grade.sbatch"

for c in parallel sbatch slurmctld slurmd munged; do
	command -v "$c" >/dev/null || { scripts/deps >/dev/null || true; break; }
done
for c in parallel sbatch squeue sinfo scontrol scancel slurmctld slurmd munged munge; do
	command -v "$c" >/dev/null || { fail "engines: $c" "not installed, and scripts/deps could not install it"; finish; }
done
check_output "parallel is GNU parallel" '^GNU parallel' parallel --will-cite --version

sub=$tmp/submissions
# Shards by cksum of the name: 1/2 holds alice, 2/2 bob and carol.
# carol's slave refuses to run: a failure to carry through the merge, and
# a shard that exits 1 (a failed task for Slurm).
for n in alice bob carol; do
	mkdir -p "$sub/$n"
	cp build/master build/slave "$sub/$n/"
done
printf '#!/bin/sh\necho "slave: will not run" >&2\nexit 1\n' >"$sub/carol/slave"
opts="--data 0 --methods fcntl-fcntl --vms 1"

# stable FILE: a class CSV without the columns a run measures (times,
# the accelerator), which differ from one run to the next.  Fields are
# split as CSV: a quoted message may hold commas (not line breaks here).
stable() {
	awk '
		function split_csv(line, f,    n, q, c, i) {
			n = 1; q = 0; f[1] = ""
			for (i = 1; i <= length(line); i++) {
				c = substr(line, i, 1)
				if (c == "\"") q = !q
				if (c == "," && !q) f[++n] = ""; else f[n] = f[n] c
			}
			return n
		}
		{ n = split_csv($0, f) }
		NR == 1 { for (i = 1; i <= n; i++)
				skip[i] = f[i] ~ /(^|_)(s|sec|secs|seconds|elapsed)$|^time$|_time$|^times_|^accel/ }
		{ out = ""; for (i = 1; i <= n; i++) if (!skip[i]) out = out "," f[i]
		  print substr(out, 2) }' "$1"
}
# check_class NAME DIR: DIR's summary, cases and failures are the one run's.
check_class() {
	for _f in summary.csv cases.csv failures.csv; do
		if [ ! -f "$2/$_f" ]; then
			fail "$1: $_f" "no $2/$_f"
		elif [ "$(stable "$2/$_f")" = "$(stable "$tmp/one/$_f")" ]; then
			pass "$1: $_f equals the one run's"
		else
			fail "$1: $_f equals the one run's" "$(diff "$2/$_f" "$tmp/one/$_f" | head -n 5 | tr '\n' ' ')"
		fi
	done
}

# free_port N: the first TCP port from N on that nothing listens on.
free_port() {
	_p=$1
	while ss -Hltn "sport = :$_p" | grep -q .; do _p=$((_p + 1)); done
	echo "$_p"
}

# cluster_start DIR: munged, slurmctld and slurmd of a one-node cluster
# whose every file is in DIR; SLURM_CONF names its slurm.conf for the
# clients and the jobs.  munge authenticates the users that talk to the
# daemons (auth/none would let any local user have a job run as root).
cl="" cl_pids=""
cluster_start() {
	cl=$1
	mkdir -p "$cl/state" "$cl/spool" "$cl/munge"
	chmod 700 "$cl" "$cl/munge"
	dd if=/dev/urandom of="$cl/munge/key" bs=1024 count=1 status=none
	chmod 600 "$cl/munge/key"
	munged --force --key-file="$cl/munge/key" --socket="$cl/munge/socket" \
		--pid-file="$cl/munge/pid" --log-file="$cl/munge/log" --seed-file="$cl/munge/seed" ||
		return 1
	_ctl=$(free_port $((20000 + $$ % 20000)))
	_d=$(free_port $((_ctl + 1)))
	# The node as slurmd measures it, so that it is not drained for less.
	_hw=$(slurmd -C | sed -n 's/^NodeName=[^ ]* \(.*RealMemory=[0-9]*\).*/\1/p')
	cat >"$cl/slurm.conf" <<CONF
ClusterName=syncdev-test
SlurmctldHost=localhost
SlurmctldPort=$_ctl
SlurmdPort=$_d
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$cl/munge/socket
StateSaveLocation=$cl/state
SlurmdSpoolDir=$cl/spool
SlurmctldPidFile=$cl/slurmctld.pid
SlurmdPidFile=$cl/slurmd.pid
SlurmctldLogFile=$cl/slurmctld.log
SlurmdLogFile=$cl/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
MinJobAge=3600
NodeName=localhost $_hw State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
	export SLURM_CONF="$cl/slurm.conf"
	slurmctld -D -i -f "$SLURM_CONF" >"$cl/slurmctld.out" 2>&1 &
	cl_pids=$!
	slurmd -D -N localhost -f "$SLURM_CONF" >"$cl/slurmd.out" 2>&1 &
	cl_pids="$cl_pids $!"
	_n=0
	until [ "$(sinfo -h -N -o %T 2>/dev/null)" = idle ]; do
		_n=$((_n + 1))
		[ "$_n" -le 60 ] || return 1
		sleep 1
	done
}

# cluster_logs: the end of each daemon's log.
cluster_logs() {
	for _l in "$cl/munge/log" "$cl/slurmctld.out" "$cl/slurmctld.log" "$cl/slurmd.out" "$cl/slurmd.log"; do
		[ -f "$_l" ] && { echo "== $_l"; tail -n 5 "$_l"; }
	done
}

# cluster_stop: cancel what is left (its steps end their processes), stop
# the daemons this test started.
cluster_stop() {
	if [ -n "$cl_pids" ]; then
		squeue -h -o %A 2>/dev/null | xargs -r scancel 2>/dev/null
		cluster_wait 30
		# shellcheck disable=SC2086 # a list of pids
		kill $cl_pids 2>/dev/null
		# shellcheck disable=SC2086
		wait $cl_pids 2>/dev/null
		cl_pids=""
	fi
	[ ! -S "${cl:-/nonexistent}/munge/socket" ] ||
		munged --stop --socket="$cl/munge/socket" >/dev/null 2>&1
}

# cluster_wait SECONDS [JOB...]: wait until the jobs (all by default) left
# the queue; fail after SECONDS.
cluster_wait() {
	_left=$1
	shift
	_jobs=""
	[ $# = 0 ] || _jobs="-j $(echo "$@" | tr ' ' ,)"
	# shellcheck disable=SC2086 # no option, or -j and a list
	while [ -n "$(squeue -h $_jobs 2>/dev/null)" ]; do
		[ "$_left" -gt 0 ] || return 1
		sleep 5
		_left=$((_left - 5))
	done
}

# cluster_job_states JOB: "STATE EXIT" of each task of JOB, one a line,
# sorted.
cluster_job_states() {
	scontrol -o show job "$1" | sed 's/.* JobState=\([A-Z_]*\) .* ExitCode=\([0-9:]*\) .*/\1 \2/' | sort
}

# --- the class in one run ------------------------------------------------
# shellcheck disable=SC2086 # opts holds options
scripts/grade/grade --batch "$sub" --out "$tmp/one" $opts >"$tmp/one.log" 2>&1
check_equal "the class in one run exits 1 (a student failed)" "$?" 1
check_equal "... its summary holds the three, carol failing" \
	"$(cut -d, -f1,12 "$tmp/one/summary.csv" | tail -n +2 | paste -sd ' ')" "alice,pass bob,pass carol,fail"
check_output "... carol's failure is the slave's exit" '^carol,exits,1,' cat "$tmp/one/failures.csv"

# --- GNU parallel: two shards side by side, then the merge ---------------
# shellcheck disable=SC2086
parallel --will-cite --jobs 2 --line-buffer scripts/grade/grade --batch "$sub" \
	--out "$tmp/par/shard-{}" --shard "{}/2" --jobs 1 $opts ::: 1 2 >"$tmp/par.log" 2>&1
check_equal "parallel: one shard exited non-zero (carol's)" "$?" 1
check_equal "parallel: shard 1/2 graded alice" "$(tail -n +2 "$tmp/par/shard-1/summary.csv" | cut -d, -f1)" alice
scripts/grade/grade --merge "$tmp/par/shard-1" "$tmp/par/shard-2" --out "$tmp/par/class" >"$tmp/par-merge.log" 2>&1
check_equal "parallel: the merge exits 1 (a student failed)" "$?" 1
check_class "parallel" "$tmp/par/class"

# --- Slurm: a one-node cluster of its own --------------------------------
if [ "$(id -u)" != 0 ]; then
	fail "slurm" "the test's cluster runs its daemons as root: run it as root"
	rm -rf "$tmp"
	finish
fi
trap 'cluster_stop; rm -rf "$tmp"' EXIT
trap 'exit 143' TERM INT
if ! cluster_start "$tmp/slurm"; then
	fail "slurm: the cluster starts" "$(cluster_logs)"
	finish
fi
pass "slurm: slurmctld, slurmd and munged start, the node is idle"
# Smaller than the file's requests, which a 2-CPU machine cannot meet;
# the rest of the job is the file's.
jid=$(GRADE_SUBMISSIONS=$sub GRADE_OUT=$tmp/slurm-out GRADE_SHARDS=2 GRADE_OPTIONS=$opts \
	sbatch --parsable --array=1-2 --cpus-per-task=1 --mem=1G --time=30:00 \
	--output="$tmp/slurm-%A_%a.out" scripts/grade/grade.sbatch 2>&1)
check_output "slurm: sbatch takes the array" '^[0-9]+$' echo "$jid"
mid=$(sbatch --parsable --dependency="afterany:$jid" --output="$tmp/slurm-merge.out" --time=10:00 \
	--wrap "scripts/grade/grade --merge $tmp/slurm-out/shard-* --out $tmp/slurm-out/class" 2>&1)
check_output "slurm: sbatch takes the merge job after it" '^[0-9]+$' echo "$mid"
cluster_wait 900 "$jid" "$mid" || fail "slurm: the jobs end within 15 minutes" "$(squeue 2>&1 | tail -n 5)"
check_equal "slurm: task 1 completed, task 2 failed (exit 1: carol)" \
	"$(cluster_job_states "$jid")" "COMPLETED 0:0
FAILED 1:0"
check_equal "slurm: the merge job ran after the failed task, exit 1 (a student failed)" \
	"$(cluster_job_states "$mid")" "FAILED 1:0"
check_equal "slurm: shard 2/2 graded bob and carol" \
	"$(tail -n +2 "$tmp/slurm-out/shard-2/summary.csv" | cut -d, -f1 | paste -sd ' ')" "bob carol"
check_class "slurm" "$tmp/slurm-out/class"
finish
