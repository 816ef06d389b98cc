# shellcheck shell=bash disable=SC2154
# Sourced by scripts/grade/grade: a student's verdicts and reports.  Every
# decision is build/gradeclass student's (user/gradeclass/student.c): it
# reads the stage (the guests' result files, strictly; the host's control
# files, console logs and output checks) and writes results.csv,
# failures.csv, report.md, STAGE/counts and STAGE/first.  This file only
# tells it what the run was (STAGE/host.conf).

# selected_vms: the boots this run made.
selected_vms() {
	case $vms in 1) echo 1vm ;; 2) echo 2vm ;; *) echo 1vm 2vm ;; esac
}

# write_host_conf NAME STAGE: the run as build/gradeclass student reads
# it, and each data set's files (STAGE/sizes/SET).
write_host_conf() {
	local set
	mkdir -p "$2/sizes"
	for set in $data; do set_files "$set" >"$2/sizes/$set"; done
	{
		echo "name=$1"
		echo "vms=$(selected_vms | paste -sd ' ')"
		echo "data=$data"
		echo "methods=$methods"
		echo "rubric=$rubric"
		echo "kernel=$VM_KVER"
		echo "accel=${VM_ACCEL:-tcg}"
		echo "timeout=$timeout"
		echo "spent=$(times_text "$2")"
		echo "cli_master=$(cli_of "$2" master)"
		echo "cli_slave=$(cli_of "$2" slave)"
		echo "problems=scripts/guest/kernel-problems.ere"
	} >"$2/host.conf"
}

# student_report NAME STAGE DIR: the student's verdicts and reports into
# DIR; fails only when they cannot be written.
student_report() {
	write_host_conf "$1" "$2"
	build/gradeclass student "$2" "$3"
	[ $? -lt 2 ]
}

# summary_text STAGE: "N/M passed (...)" for the progress line.
summary_text() {
	local cases p f n
	read -r cases p f n <"$1/counts"
	printf '%s/%s cases passed' "$p" "$cases"
	[ "$f" = 0 ] || printf ', %s failed' "$f"
	[ "$n" = 0 ] || printf ', %s not run' "$n"
	[ ! -s "$1/first" ] || printf ' (first: %s)' "$(cut -c 1-100 "$1/first")"
}
