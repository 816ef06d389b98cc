# shellcheck shell=bash disable=SC2154
# Sourced by scripts/grade/grade: a class (--batch).  The students of this shard
# (--shard K/N) are graded --jobs at a time, each in its own shared
# directory OUT/work/NAME and report directory OUT/NAME, which gets "done"
# (a copy of OUT/grade.options) once complete; --resume skips those,
# --only grades one again.  build/gradeclass (user/gradeclass/) then
# writes the class's summary from every OUT/NAME.

# in_shard NAME: NAME falls in this run's shard (cksum of the name, so the
# split does not depend on the folder's order or on the other names).
in_shard() {
	local h
	h=$(printf '%s' "$1" | cksum | cut -d ' ' -f 1)
	[ $((h % ${shard#*/} + 1)) = "${shard%/*}" ]
}

# default_jobs: students side by side by default: one per host CPU, at
# most one per 2.5 GiB of available memory (two 1 GiB guests and QEMU's
# own), at least one.
default_jobs() {
	local cpus mem
	cpus=$(nproc)
	mem=$(awk '/^MemAvailable:/ { print int($2 / 1024 / 2560) }' /proc/meminfo)
	[ "${mem:-0}" -ge 1 ] || mem=1
	echo $((cpus < mem ? cpus : mem))
}

# grade_student NAME: stage, boot and report one student into OUT/NAME,
# then its progress line.
grade_student() {
	local name=$1 stage=$share/$1 dir=$out/$1 ndone
	GRADE_T0=$SECONDS
	trap 'kill_boot; exit 130' TERM
	rm -f "$dir/done"
	if [ "$report_only" = 0 ]; then
		rm -rf "$stage" "$dir"
		mkdir -p "$stage"
		if [ -L "$batch/$name" ]; then
			fatal "$stage" "the folder $name is a symbolic link: a submission is a folder of regular files"
		else
			stage_student "$stage" "$batch/$name"
		fi
		write_conf "$stage"
		phase_time "$stage" staging $((SECONDS - GRADE_T0))
	fi
	grade_one "$name" "$stage" "$dir"
	cp "$out/grade.options" "$dir/done"
	echo "$name" >>"$share/.done"
	ndone=$(wc -l <"$share/.done")
	echo "grade: [$ndone/$to_grade] $name: $(summary_text "$stage") ($((SECONDS - GRADE_T0)) s; $(progress_text "$ndone"))" >&2
}

# progress_text DONE: the batch's elapsed time and, from the students done
# so far, an estimate of the time left.
progress_text() {
	local elapsed=$((SECONDS - batch_t0)) left
	left=$((elapsed * (to_grade - $1) / $1))
	printf '%s elapsed' "$(duration "$elapsed")"
	[ "$1" = "$to_grade" ] || printf ', about %s left' "$(duration "$left")"
}

# duration S: S seconds as "1 h 2 min", "3 min 4 s" or "5 s".
duration() {
	if [ "$1" -ge 3600 ]; then
		echo "$(($1 / 3600)) h $(($1 % 3600 / 60)) min"
	elif [ "$1" -ge 60 ]; then
		echo "$(($1 / 60)) min $(($1 % 60)) s"
	else
		echo "$1 s"
	fi
}

# check_same_options: --resume and --only go on with OUT only when it was
# graded with the options of this run.
check_same_options() {
	local diff
	[ -f "$out/grade.options" ] || bad_usage "$1: $out holds no batch (no grade.options)"
	diff=$(build/gradeclass diff "$out/grade.options" "$out/grade.options.new") ||
		bad_usage "$1: $out was graded with other options: $(echo "$diff" | paste -sd ';')"
}

# The students: the folders whose names check-name accepts (list_students).
students=()
while IFS= read -r -d '' d; do
	in_shard "$d" && students+=("$d")
done < <(list_students "$batch")
[ ${#students[@]} -gt 0 ] || bad_usage "--batch $batch: no student directories${shard:+ in shard $shard}"
[ -z "$only" ] || printf '%s\n' "${students[@]}" | grep -qxF -- "$only" ||
	bad_usage "--only $only: no such student in $batch${shard:+ (shard $shard)}"
write_options "$out/grade.options.new"
if [ "$resume" = 1 ] || [ -n "$only" ] || [ "$report_only" = 1 ]; then
	check_same_options "$( [ -n "$only" ] && echo --only || echo --resume)"
fi
mv "$out/grade.options.new" "$out/grade.options"
cp "$rubric" "$out/rubric"
printf '%s\n' "${students[@]}" >"$out/students"
[ -n "$jobs" ] || jobs=$(default_jobs)

trap 'echo "grade: interrupted" >&2; kill $(jobs -p) 2>/dev/null; wait; exit 130' INT TERM
# The students this run grades, for the progress lines.
queue=()
for name in "${students[@]}"; do
	[ -z "$only" ] || [ "$name" = "$only" ] || continue
	# Refused (said by list_students): the summary shows why.
	build/gradeclass check-name "$name" >/dev/null 2>&1 || continue
	if [ "$resume" = 1 ] && [ -f "$out/$name/done" ]; then
		echo "grade: $name: graded already" >&2
		continue
	fi
	queue+=("$name")
done
to_grade=${#queue[@]} batch_t0=$SECONDS
mkdir -p "$share"
: >"$share/.done"
for name in "${queue[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
	grade_student "$name" &
done
wait
build/gradeclass summarize "$out"
rc=$?
echo "grade: summary: $out/summary.csv, report: $out/report.md, $out/report.html" >&2
exit "$rc"
