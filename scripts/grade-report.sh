# shellcheck shell=bash
# Sourced by scripts/grade: turn the guests' result files (STAGE/results/
# <1vm|2vm>/<case>.<side>.res, written by scripts/guest/grade-check.sh) into
# results.csv, report.md and the summary row of a student.

RESULTS_HEADER="student,vms,case,data,files,bytes,master_method,slave_method,result,reason,master_exit,slave_exit,master_ms,slave_ms,master_secs,slave_secs,output_sha256,expected_sha256"
SUMMARY_HEADER="student,cases,passed,failed,not_run,result,first_failure"

# csv VALUE...: one CSV row, each value quoted when it needs it.
csv() {
	local v sep="" row=""
	for v; do
		case $v in *[,\"$'\n']*) v="\"${v//\"/\"\"}\"" ;; esac
		row+=$sep$v
		sep=,
	done
	printf '%s\n' "$row"
}

# res_get FILE KEY: the first value of KEY in a result file.
res_get() { [ -f "$1" ] && sed -n "s/^$2=//p" "$1" | head -n 1; }

# ms_of LINE: the milliseconds of a "Transmission time" line.
ms_of() { sed -n 's/.*[Tt]ime: *\([0-9.]*\) *ms.*/\1/p' <<<"$1"; }

# selected_vms: the boots this run made.
selected_vms() {
	case $vms in 1) echo 1vm ;; 2) echo 2vm ;; *) echo 1vm 2vm ;; esac
}

# verdict STAGE VMS CASE: sets V_RESULT (pass|fail|not-run), V_REASON,
# V_M and V_S (the two sides' result files).
verdict() {
	local stage=$1 v=$2 c=$3 fate where
	V_M=$stage/results/$v/$c.master.res V_S=$stage/results/$v/$c.slave.res
	if [ -f "$stage/fatal" ]; then
		V_RESULT=fail V_REASON=$(cat "$stage/fatal")
		return
	fi
	if [ -f "$V_M" ] && [ -f "$V_S" ]; then
		V_REASON=$(cat "$V_M" "$V_S" | sed -n 's/^reason=//p' | paste -sd ';' | sed 's/;/; /g')
		V_RESULT=pass
		[ -z "$V_REASON" ] || V_RESULT=fail
		return
	fi
	fate=$(boot_fate "$stage" "$v")
	where=$(boot_where "$stage" "$v")
	if [ "$where" = "$c" ]; then
		V_RESULT=fail V_REASON=${fate:-the guest stopped in this case}
		[ -f "$V_M" ] && V_REASON="$(sed -n 's/^reason=//p' "$V_M" | paste -sd ';')${V_REASON:+; }$V_REASON"
	else
		V_RESULT=not-run V_REASON="not run: ${fate:-no result}${where:+ (in $where)}"
	fi
}

# data_label SET: the data set as the report names it.
data_label() {
	case $1 in
	small) echo "the course's 10 small files" ;;
	large) echo "the course's large file" ;;
	big) echo "2 device buffers + 1 byte" ;;
	1M+1) echo "1 MiB + 1 byte" ;;
	64M) echo "64 MiB" ;;
	*) echo "$1 bytes" ;;
	esac
}

# collect NAME STAGE: results.csv on stdout; STAGE/counts gets "cases
# passed failed not_run" and STAGE/first the first failure.
collect() {
	local name=$1 stage=$2 v set m c p=0 f=0 n=0 tm ts
	: >"$stage/first"
	echo "$RESULTS_HEADER"
	for v in $(selected_vms); do
		for set in $data; do
			for m in $methods; do
				c=$set.$m
				verdict "$stage" "$v" "$c"
				case $V_RESULT in
				pass) p=$((p + 1)) ;;
				fail) f=$((f + 1)) ;;
				*) n=$((n + 1)) ;;
				esac
				[ "$V_RESULT" = pass ] || [ -s "$stage/first" ] || echo "$v $c: $V_REASON" >"$stage/first"
				tm=$(res_get "$V_M" time) ts=$(res_get "$V_S" time)
				csv "$name" "${v%vm}" "$c" "$set" "$(res_get "$V_M" files)" \
					"$(res_get "$V_S" bytes)" "${m%-*}" "${m#*-}" "$V_RESULT" "$V_REASON" \
					"$(res_get "$V_M" rc)" "$(res_get "$V_S" rc)" "$(ms_of "$tm")" "$(ms_of "$ts")" \
					"$(res_get "$V_M" secs)" "$(res_get "$V_S" secs)" \
					"$(res_get "$V_S" sum)" "$(res_get "$V_S" want)"
			done
		done
	done
	echo "$((p + f + n)) $p $f $n" >"$stage/counts"
}

# summary_row NAME STAGE: the student's line of summary.csv.
summary_row() {
	local cases p f n result=pass
	read -r cases p f n <"$2/counts"
	[ "$f" = 0 ] && [ "$n" = 0 ] || result=fail
	csv "$1" "$cases" "$p" "$f" "$n" "$result" "$(cat "$2/first")"
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

# klog_excerpt FILE: up to 8 kernel lines, in a code block.
klog_excerpt() {
	[ -s "$1" ] || return 0
	echo "- kernel log during the case ($(wc -l <"$1") lines${2:+, $2}):"
	echo
	echo '  ```'
	head -n 8 "$1" | cut -c 1-200 | sed 's/^/  /'
	echo '  ```'
}

# side_line FILE SIDE: one program's line of a case's details.
side_line() {
	local t rc secs
	[ -f "$1" ] || { echo "- $2: no result"; return; }
	t=$(res_get "$1" time) rc=$(res_get "$1" rc) secs=$(res_get "$1" secs)
	if [ -n "$t" ]; then t="\`$t\`"; else t="no time line"; fi
	echo "- $2: $t (exit $rc${secs:+, $secs s})"
	if grep -q "^reason=$2:" "$1" && [ -s "${1%.res}.out" ]; then
		echo "  last output: \`$(tail -n 2 "${1%.res}.out" | tr -d '\r' | paste -sd '|' | cut -c 1-200 | tr '`' "'")\`"
	fi
}

# case_details STAGE VMS CASE: the section of one case.
case_details() {
	local stage=$1 v=$2 c=$3 sum want r=$1/results/$2/$3
	verdict "$stage" "$v" "$c"
	echo "### $v $c: $V_RESULT"
	echo
	[ -z "$V_REASON" ] || echo "- why: $V_REASON"
	side_line "$V_M" master
	side_line "$V_S" slave
	sum=$(res_get "$V_S" sum) want=$(res_get "$V_S" want)
	[ -z "$want" ] || echo "- output sha256: \`${sum:-none}\` (input: \`$want\`)"
	if [ "$v" = 1vm ]; then
		klog_excerpt "$r.klog"
	else
		klog_excerpt "$r.master.klog" "master guest"
		klog_excerpt "$r.slave.klog" "slave guest"
	fi
	echo
}

# write_report NAME STAGE CSV: report.md of one student.
write_report() {
	local name=$1 stage=$2 cases p f n v set m fate
	read -r cases p f n <"$stage/counts"
	echo "# Grading report${name:+: $name}"
	echo
	echo "| | |"
	echo "|---|---|"
	echo "| date | $(date -u '+%Y-%m-%d %H:%M UTC') |"
	echo "| guest kernel | $VM_KVER (QEMU, TCG: times are emulated, compare them only with each other) |"
	sed 's/^\([^:]*\): \(.*\)$/| \1 | \2 |/' "$stage/info" 2>/dev/null
	echo "| cases | $cases: $p passed, $f failed, $n not run |"
	echo "| time limit | $timeout s per program and case ($((timeout * 3)) s for big and 64M) |"
	[ ! -f "$stage/fatal" ] || echo "| not run because | $(cat "$stage/fatal") |"
	for v in $(selected_vms); do
		[ ! -f "$stage/fatal" ] || continue
		fate=$(boot_fate "$stage" "$v")
		echo "| $v boot | ${fate:-finished}; console: \`$(ls "$stage/$v"*.log 2>/dev/null | paste -sd ' ')\` |"
		[ ! -s "$stage/results/$v/unload.vm" ] || echo "| $v unload | $(paste -sd ';' "$stage/results/$v/unload.vm") |"
	done
	echo
	echo "## Results"
	echo
	echo "| VMs | case | data | result | why |"
	echo "|---|---|---|---|---|"
	for v in $(selected_vms); do
		for set in $data; do
			for m in $methods; do
				verdict "$stage" "$v" "$set.$m"
				echo "| ${v%vm} | $set.$m | $(data_label "$set") | $V_RESULT | $(tr '|' '/' <<<"$V_REASON" | cut -c 1-300) |"
			done
		done
	done
	echo
	echo "## Cases"
	echo
	for v in $(selected_vms); do
		for set in $data; do
			for m in $methods; do
				case_details "$stage" "$v" "$set.$m"
			done
		done
	done
	[ -f "$stage/module-build.log" ] && echo "Module build log: \`$stage/module-build.log\`"
	return 0
}

# write_batch_report SUMMARY_CSV: the batch's report.md, one row a student.
write_batch_report() {
	echo "# Grading summary"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), guest kernel $VM_KVER; one report per student: \`<student>/report.md\`."
	echo
	echo "| student | cases | passed | failed | not run | first failure |"
	echo "|---|---|---|---|---|---|"
	local name
	for name in "${students[@]}"; do
		local cases p f n
		read -r cases p f n <"$share/$name/counts"
		echo "| [$name]($name/report.md) | $cases | $p | $f | $n | $(cut -c 1-200 "$share/$name/first" | tr '|' '/') |"
	done
}
