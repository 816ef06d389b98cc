# shellcheck shell=bash disable=SC2154
# Sourced by scripts/grade/grade: turn the guests' result files (STAGE/results/
# <1vm|2vm>/<case>.<side>.res, written by scripts/grade/guest/grade-check.sh) into
# a student's results.csv, failures.csv and report.md; build/gradeclass
# makes the class's summary from them.
# shellcheck disable=SC2034 # its variables are for the scripts that source it

# The criteria of a case, each pass, fail, n/a (it does not apply: pages
# in fcntl mode) or not-run; the rubric (scripts/grade/grade.rubric) weighs them.
CRITERIA="bytes exits time_line pages kernel_log"
RESULTS_HEADER="student,vms,case,data,files,bytes,master_method,slave_method,result,reason,master_exit,slave_exit,master_ms,slave_ms,master_secs,slave_secs,output_sha256,expected_sha256,${CRITERIA// /_ok,}_ok"
FAILURES_HEADER="student,kind,cases,first_case,first_message"

# Everything a guest wrote is text to show, never markup: & in a pattern
# substitution's replacement is literal.
shopt -u patsub_replacement 2>/dev/null

# md_text VALUE: VALUE for a markdown table cell or line: no control
# character, backquote, pipe or HTML.
md_text() {
	local v=${1//[$'\001'-$'\037'$'\177']/ }
	v=${v//\`/\'} v=${v//|//} v=${v//&/&amp;} v=${v//</&lt;} v=${v//>/&gt;}
	printf '%s' "$v"
}

# md_code VALUE: VALUE for a line of a code block: no control character, no
# backquote (which could end the block).
md_code() {
	local v=${1//[$'\001'-$'\037'$'\177']/ }
	printf '%s' "${v//\`/\'}"
}

# csv VALUE...: one CSV row, each value quoted when it holds a comma, a
# quote, a CR or an LF; a value a spreadsheet would run as a formula
# (starting with = + - @ TAB or CR, and not a plain number such as -1 or
# -0.5), or single quotes and such a value, gets a single quote before
# it, inside quotes, as OWASP's "CSV Injection" page says; byte for byte
# what user/common/csvout.c writes, so build/gradeclass reads it back.
csv() {
	local v t q sep="" row=""
	for v; do
		q='' t=$v
		while [ "${t#"'"}" != "$t" ]; do t=${t#"'"}; done
		case $t in
		[-=+@$'\t\r']*)
			[[ $t =~ ^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$ ]] || v="'$v" q=1
			;;
		esac
		case $v in *[,\"$'\r\n']*) q=1 ;; esac
		[ -z "$q" ] || v="\"${v//\"/\"\"}\""
		row+=$sep$v
		sep=,
	done
	printf '%s\n' "$row"
}

# res_load FILE ARRAY: a result file into the associative ARRAY (the
# first value of each key; "reason" holds all reasons joined by "; ",
# "check" every criterion checked, space-separated).
# Builtins only: a batch reads thousands of these.
res_load() {
	local -n _r=$2
	local line k v
	_r=()
	[ -f "$1" ] || return 0
	while IFS= read -r line; do
		k=${line%%=*} v=${line#*=}
		if [ "$k" = reason ]; then
			_r[reason]+="${_r[reason]:+; }$v"
		elif [ "$k" = check ]; then
			_r[check]+=" $v "
		elif [ -z "${_r[$k]+set}" ]; then
			# shellcheck disable=SC2004 # $k: a key of an associative array
			_r[$k]=$v
		fi
	done <"$1"
}

# ms_of LINE: the milliseconds of a "Transmission time" line.
ms_of() {
	[[ $1 =~ [Tt]ime:\ *([0-9.]+)\ *ms ]] && echo "${BASH_REMATCH[1]}"
}

# selected_vms: the boots this run made.
selected_vms() {
	case $vms in 1) echo 1vm ;; 2) echo 2vm ;; *) echo 1vm 2vm ;; esac
}

# verdict STAGE VMS CASE: sets V_RESULT (pass|fail|not-run), V_REASON,
# V_M and V_S (the two sides' result files) and loads them into RM and RS;
# then criteria (V_CRIT, V_WHY).
declare -A RM RS V_CRIT V_WHY
verdict() {
	verdict_case "$@"
	verdict_criteria
}

# verdict_case STAGE VMS CASE: V_RESULT and V_REASON (see verdict).  The
# output files (bytes) and the kernel log (kernel_log) are the host's
# verdicts (scripts/grade/grade-verify.sh); exits, time_line and pages
# are what the guest reported.
verdict_case() {
	local stage=$1 v=$2 c=$3 fate where r=$1/results/$2/$3
	V_M=$stage/results/$v/$c.master.res V_S=$stage/results/$v/$c.slave.res
	res_load "$V_M" RM
	res_load "$V_S" RS
	host_verdicts "$r"
	if [ -f "$stage/fatal" ]; then
		V_RESULT=fail V_REASON=$(<"$stage/fatal")
		return
	fi
	V_REASON=""
	add_reason "${RM[reason]:-}"
	add_reason "${V_HOST_WHY[master_kernel]}"
	add_reason "${RS[reason]:-}"
	add_reason "${V_HOST_WHY[bytes]}"
	add_reason "${V_HOST_WHY[slave_kernel]}"
	if [ -f "$V_M" ] && [ -f "$V_S" ]; then
		V_RESULT=pass
		[ -z "$V_REASON" ] || V_RESULT=fail
		return
	fi
	fate=$(boot_fate "$stage" "$v")
	where=$(boot_where "$stage" "$v")
	if [ "$where" = "$c" ]; then
		V_RESULT=fail V_REASON+="${V_REASON:+; }${fate:-the guest stopped in this case}"
	else
		V_RESULT=not-run V_REASON="not run: ${fate:-no result}${where:+ (in $where)}"
	fi
}

# add_reason TEXT: TEXT after the reasons of the case so far.
add_reason() {
	[ -z "$1" ] || V_REASON+="${V_REASON:+; }$1"
}

# host_verdicts CASE_PATH: V_HOST_WHY[bytes], [master_kernel] and
# [slave_kernel]: why the host failed the case's output files and each
# guest's kernel log, empty when it passed them.
declare -A V_HOST_WHY
host_verdicts() {
	local b="" k line
	V_HOST_WHY=([bytes]="" [master_kernel]="" [slave_kernel]="")
	if [ -f "$1.bytes" ]; then
		b=$(<"$1.bytes")
		[ "$b" = pass ] && b=""
	else
		b="no output files"
	fi
	[ -z "$b" ] || V_HOST_WHY[bytes]="slave: ${b//$'\n'/; slave: }"
	for k in master slave; do
		[ -s "$1.$k.kernel" ] || continue
		read -r line <"$1.$k.kernel"
		V_HOST_WHY[${k}_kernel]="$k: kernel log: $line"
	done
}

# verdict_criteria: V_CRIT[criterion] (pass, fail, n/a, not-run) and
# V_WHY[criterion] (its first message) of the case verdict_case judged.
# A case that nothing ran in fails each criterion (not-run when not run);
# a side that left no result fails the criteria it would have checked.
verdict_criteria() {
	local k both=0
	[ -f "$V_M" ] && [ -f "$V_S" ] && both=1
	for k in $CRITERIA; do
		V_WHY[$k]=${RM[why.$k]:-${RS[why.$k]:-}}
		case $k in
		bytes) V_WHY[$k]=${V_HOST_WHY[bytes]%%; *} ;;
		kernel_log) V_WHY[$k]=${V_HOST_WHY[master_kernel]:-${V_HOST_WHY[slave_kernel]}} ;;
		esac
		if [ "$V_RESULT" = not-run ]; then
			V_CRIT[$k]=not-run V_WHY[$k]=$V_REASON
		elif [ -f "$stage/fatal" ]; then
			V_CRIT[$k]=fail V_WHY[$k]=$V_REASON
		elif [ -n "${V_WHY[$k]}" ]; then
			V_CRIT[$k]=fail
		elif [ "$both" = 0 ] && [ "$V_RESULT" = fail ]; then
			V_CRIT[$k]=fail V_WHY[$k]=$V_REASON
		elif [ "$k" = bytes ] || [ "$k" = kernel_log ] ||
			[[ "${RM[check]:-}${RS[check]:-}" == *" $k "* ]]; then
			V_CRIT[$k]=pass
		else
			V_CRIT[$k]=n/a
		fi
	done
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
# passed failed not_run", STAGE/first the first failure and
# STAGE/failures.csv the failures by kind (criterion or not-run).
collect() {
	local name=$1 stage=$2 v set m c k p=0 f=0 n=0 kinds="$CRITERIA not-run" got want
	local -A fcount ffirst
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
				count_failures fcount ffirst "$v $c"
				want="" got=""
				[ ! -f "$stage/results/$v/$c.sum" ] || read -r want got <"$stage/results/$v/$c.sum"
				csv "$name" "${v%vm}" "$c" "$set" "$(set_files "$set" | wc -l)" \
					"$(set_files "$set" | awk '{ s += $2 } END { printf "%d", s }')" "${m%-*}" "${m#*-}" "$V_RESULT" "$V_REASON" \
					"${RM[rc]:-}" "${RS[rc]:-}" "$(ms_of "${RM[time]:-}")" "$(ms_of "${RS[time]:-}")" \
					"${RM[secs]:-}" "${RS[secs]:-}" "$got" "$want" \
					"${V_CRIT[bytes]}" "${V_CRIT[exits]}" "${V_CRIT[time_line]}" \
					"${V_CRIT[pages]}" "${V_CRIT[kernel_log]}"
			done
		done
	done
	echo "$((p + f + n)) $p $f $n" >"$stage/counts"
	{
		echo "$FAILURES_HEADER"
		for k in $kinds; do
			[ -z "${fcount[$k]:-}" ] ||
				csv "$name" "$k" "${fcount[$k]}" "${ffirst[$k]%%$'\t'*}" "${ffirst[$k]#*$'\t'}"
		done
	} >"$stage/failures.csv"
}

# count_failures COUNTS FIRSTS CASE: add the verdict's failed criteria (or
# its not-run) to the per-kind counts and first "case<TAB>message" pairs.
count_failures() {
	local -n _c=$1 _f=$2
	local k n
	if [ "$V_RESULT" = not-run ]; then
		n=${_c[not-run]:-0}
		_c[not-run]=$((n + 1))
		[ -n "${_f[not-run]:-}" ] || _f[not-run]=$3$'\t'$V_REASON
		return
	fi
	# shellcheck disable=SC2004 # _c and _f are associative (namerefs): $k is a key
	for k in $CRITERIA; do
		[ "${V_CRIT[$k]}" = fail ] || continue
		n=${_c[$k]:-0}
		_c[$k]=$((n + 1))
		[ -n "${_f[$k]:-}" ] || _f[$k]=$3$'\t'${V_WHY[$k]}
	done
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

# klog_excerpt FILE [WHOSE]: up to 8 kernel lines, in a code block.
klog_excerpt() {
	local lines l
	[ -s "$1" ] || return 0
	mapfile -t lines <"$1"
	echo "- kernel log during the case (guest-reported, ${#lines[@]} lines${2:+, $2}):"
	echo
	echo '  ```'
	for l in "${lines[@]:0:8}"; do
		echo "  $(md_code "${l:0:200}")"
	done
	echo '  ```'
}

# side_line FILE SIDE ARRAY: one program's line of a case's details.
side_line() {
	local -n _s=$3
	local t rc secs
	[ -f "$1" ] || { echo "- $2: no result"; return; }
	t=$(md_text "${_s[time]:-}") rc=$(md_text "${_s[rc]:-}") secs=$(md_text "${_s[secs]:-}")
	if [ -n "$t" ]; then t="\`$t\`"; else t="no time line"; fi
	case ${_s[time_form]:-strict} in
	strict) ;;
	*) t+=" (accepted: $(md_text "${_s[time_form]}") form)" ;;
	esac
	echo "- $2 (guest-reported): $t (exit $rc${secs:+, $secs s})"
	if [[ ${_s[reason]:-} == *"$2: "* ]] && [ -s "${1%.res}.out" ]; then
		echo "  last output: \`$(md_text "$(tail -n 2 "${1%.res}.out" | paste -sd ' ' | cut -c 1-200)")\`"
	fi
}

# case_details STAGE VMS CASE: the section of one case.
case_details() {
	local stage=$1 v=$2 c=$3 sum want r=$1/results/$2/$3
	verdict "$stage" "$v" "$c"
	echo "### $v $c: $V_RESULT"
	echo
	[ -z "$V_REASON" ] || echo "- why: $(md_text "$V_REASON")"
	side_line "$V_M" master RM
	side_line "$V_S" slave RS
	want="" sum=""
	[ ! -f "$r.sum" ] || read -r want sum <"$r.sum"
	[ -z "$want" ] || echo "- output sha256: \`${sum:-none}\` (input: \`$want\`)"
	if [ "$v" = 1vm ]; then
		klog_excerpt "$r.klog"
	else
		klog_excerpt "$r.master.klog" "master guest"
		klog_excerpt "$r.slave.klog" "slave guest"
	fi
	echo
}

# write_report NAME STAGE CSV: report.md of one student (CSV: their
# results.csv, for the score).
write_report() {
	local name=$1 stage=$2 cases p f n v set m fate why u line
	local -A labels
	for set in $data; do labels[$set]=$(data_label "$set"); done
	read -r cases p f n <"$stage/counts"
	echo "# Grading report${name:+: $name}"
	echo
	echo "| | |"
	echo "|---|---|"
	echo "| date | $(date -u '+%Y-%m-%d %H:%M UTC') |"
	if [ "${VM_ACCEL:-tcg}" = kvm ]; then
		echo "| guest kernel | $VM_KVER (QEMU, KVM) |"
	else
		echo "| guest kernel | $VM_KVER (QEMU, TCG: times are emulated, compare them only with each other) |"
	fi
	[ ! -f "$stage/info" ] || while IFS= read -r line; do
		echo "| $(md_text "${line%%: *}") | $(md_text "${line#*: }") |"
	done <"$stage/info"
	echo "| cases | $cases: $p passed, $f failed, $n not run |"
	echo "| score | $(build/gradeclass score "$rubric" "$3")% (weighted by $rubric) |"
	echo "| time limit | $timeout s per program and case ($((timeout * 3)) s for big and 64M) |"
	echo "| time spent | $(times_text "$stage") |"
	echo "| command lines | \`$(cli_of "$stage" master)\`, \`$(cli_of "$stage" slave)\` |"
	[ ! -f "$stage/fatal" ] || echo "| not run because | $(md_text "$(cat "$stage/fatal")") |"
	for v in $(selected_vms); do
		[ ! -f "$stage/fatal" ] || continue
		fate=$(boot_fate "$stage" "$v")
		echo "| $v boot | $(md_text "${fate:-finished}"); console: \`$(ls "$stage/$v"*.log 2>/dev/null | paste -sd ' ')\` |"
		for u in "$stage/results/$v"/unload.*; do
			[ ! -s "$u" ] || echo "| $v rmmod (${u##*.}) | $(md_text "$(paste -sd ';' "$u")") |"
		done
	done
	echo
	echo "## Results"
	echo
	echo "bytes and kernel_log are the host's own checks: it made the data, compared the"
	echo "output files after the guest was off and read the console it captured."
	echo "exits, time_line and pages are guest-reported: a submission that runs as root"
	echo "in the guest could forge them (docs/grading-trust.md, \"What a submission can and"
	echo "cannot forge\")."
	echo
	echo "| VMs | case | data | result | ${CRITERIA// / | } | why |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	for v in $(selected_vms); do
		for set in $data; do
			for m in $methods; do
				verdict "$stage" "$v" "$set.$m"
				why=$(md_text "$V_REASON")
				echo "| ${v%vm} | $set.$m | ${labels[$set]} | $V_RESULT | ${V_CRIT[bytes]} | ${V_CRIT[exits]} | ${V_CRIT[time_line]} | ${V_CRIT[pages]} | ${V_CRIT[kernel_log]} | ${why:0:300} |"
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
