# shellcheck shell=sh
# Sourced by the grader's host tests: a student's work directory as the
# guests and the host's checks leave it after a boot, with no guest
# booted, for build/gradeclass student (the host's verdicts) to judge.
# The guests' result files follow docs/grading.md, "Result files".

# fx_sizes SET: "NAME SIZE" of the data set's files, as the grader's own
# set_files says (scripts/grade/grade-verify.sh, bash).
fx_sizes() {
	# shellcheck disable=SC2016 # the inner shell's words
	bash -c '. scripts/grade/grade-verify.sh && set_files "$1"' bash "$1"
}

# fx_total SET: the data set's bytes.
fx_total() { fx_sizes "$1" | awk '{ s += $2 } END { printf "%d\n", s }'; }

# fx_res SIDE METHOD TOTAL: a passing side's result file.
fx_res() {
	printf 'check=exits\nrc=0\nsecs=0.25\nbytes=%s\nfiles=1\ndevice_bytes=%s\n' "$3" "$3"
	if [ "$2" = mmap ]; then printf 'check=pages\npages=4\n'; fi
	printf 'status=pass\nend=1\n'
}

# fx_stage DIR VMS DATA METHODS: DIR/stage of a student "eve" whose
# every case passed in the boots VMS ("1vm", "2vm" or "1vm 2vm"), and an
# empty DIR/out for the reports.  FX_CLI: the master's template.
fx_stage() {
	st=$1/stage
	rm -rf "$st" "$1/out"
	mkdir -p "$st/sizes" "$1/out"
	{
		echo "name=eve"
		echo "vms=$2"
		echo "data=$3"
		echo "methods=$4"
		echo "rubric=${FX_RUBRIC:-scripts/grade/grade.rubric}"
		echo "kernel=6.1"
		echo "accel=tcg"
		echo "timeout=60"
		echo "spent=total 1 s"
		echo "cli_master=${FX_CLI:-master {n} {files} {method}}"
		echo "cli_slave=slave {n} {files} {method} {ip}"
		echo "problems=scripts/guest/kernel-problems.ere"
	} >"$st/host.conf"
	echo 1 >"$st/strict-pages"
	for v in $2; do
		mkdir -p "$st/results/$v"
		: >"$st/$v.log"
		for set in $3; do
			fx_sizes "$set" >"$st/sizes/$set"
			t=$(fx_total "$set")
			for m in $4; do
				c=$set.$m
				fx_res master "${m%-*}" "$t" >"$st/results/$v/$c.master.res"
				fx_res slave "${m#*-}" "$t" >"$st/results/$v/$c.slave.res"
				for side in master slave; do
					echo "Transmission time: 1.5 ms, File size: $t bytes" \
						>"$st/results/$v/$c.$side.out"
				done
				echo pass >"$st/results/$v/$c.bytes"
				echo "0123456789abcdef 0123456789abcdef" >"$st/results/$v/$c.sum"
			done
		done
	done
}

# fx_judge DIR: build/gradeclass student on DIR/stage into DIR/out.
fx_judge() { build/gradeclass student "$1/stage" "$1/out" >"$1/judge.err" 2>&1; }

# fx_row DIR VMS CASE: the case's row of results.csv ("1" or "2" for VMS).
fx_row() { grep "^eve,$2,$3," "$1/out/results.csv"; }

# fx_result DIR VMS CASE: pass, fail or not-run.
fx_result() { fx_row "$@" | cut -d , -f 9; }

# fx_crit DIR VMS CASE CRITERION: the criterion's cell (the last five
# columns are never quoted).
fx_crit() {
	fx_row "$1" "$2" "$3" | awk -F , -v c="$4" '{
		n = split("bytes exits time_line pages kernel_log", k, " ")
		for (i = 1; i <= n; i++) if (k[i] == c) print $(NF - n + i)
	}'
}
