# shellcheck shell=bash disable=SC2154
# Sourced by scripts/grade/grade: put one student's programs and modules into
# STAGE/input, which the guests see read-only at /input
# (scripts/grade/grade-verify.sh adds the data):
#
#   STAGE/input/bin/master, bin/slave  the programs
#   STAGE/input/modules/*.ko, order    the modules, in load order
#   STAGE/input/grade.conf             the cases (scripts/grade/guest/grade.sh)
#   STAGE/cli                       the student's own command lines (the
#                                   master's template, then the slave's),
#                                   from grade.cli in the submission
#   STAGE/info                      what was staged, for the report
#   STAGE/fatal                     why nothing can run (a failed build,
#                                   a missing program), if so
#   STAGE/results/                  what the host took from the guests
#
# Uses the globals of scripts/grade/grade (data, methods, timeout, page_re, cli,
# slave_cli).

# fatal STAGE WHY: the student's cases fail without a boot, for WHY.
fatal() {
	[ -f "$1/fatal" ] || echo "$2" >"$1/fatal"
}

# info STAGE KEY VALUE: a line of STAGE/info.
info() { printf '%s: %s\n' "$2" "$3" >>"$1/info"; }

# What is taken from a submission: regular files only (no link followed
# or copied), each and all of them bounded.  Override for tests only.
INTAKE_FILE_MAX=${SYNCDEV_INTAKE_FILE_MAX:-33554432}
INTAKE_TREE_MAX=${SYNCDEV_INTAKE_TREE_MAX:-67108864}
INTAKE_TREE_FILES=${SYNCDEV_INTAKE_TREE_FILES:-2000}
# The submission's directory, whose files are named relative to it.
intake_base=""

# intake_name PATH: PATH as the verdicts name it (relative to the
# submission; control characters, which a name may hold, as '?').
intake_name() {
	local n=$1
	[ -z "$intake_base" ] || n=${n#"$intake_base"/}
	[ -z "$intake_base" ] || [ "$n" != "$intake_base" ] || n="the submission"
	printf '%s\n' "${n//[[:cntrl:]]/?}"
}

# intake_problem PATH MAX: why PATH cannot be taken as a file of at most
# MAX bytes, if so (a link is never followed).
intake_problem() {
	local n
	n=$(intake_name "$1")
	if [ -L "$1" ]; then
		echo "$n is a symbolic link: a submission's files must be regular files"
	elif [ ! -e "$1" ]; then
		echo "$n: no such file"
	elif [ ! -f "$1" ]; then
		echo "$n is not a regular file ($(stat -c %F "$1")): a submission's files must be regular files"
	elif [ "$(stat -c %s "$1")" -gt "$2" ]; then
		echo "$n is too big ($(stat -c %s "$1") bytes; a file may have $2)"
	fi
}

# take_file SRC DEST [MAX]: copy SRC, a regular file of at most MAX bytes
# (default INTAKE_FILE_MAX), to DEST; else print why and fail.  The copy
# opens SRC without following a link or blocking, and stops past MAX.
take_file() {
	local max=${3:-$INTAKE_FILE_MAX} why
	why=$(intake_problem "$1" "$max")
	[ -z "$why" ] || { echo "$why"; return 1; }
	if ! dd if="$1" of="$2" iflag=nofollow,nonblock,count_bytes count=$((max + 1)) \
		status=none 2>/dev/null; then
		echo "$(intake_name "$1"): cannot be read as a regular file"
		return 1
	fi
	[ "$(stat -c %s "$2")" -le "$max" ] ||
		{ echo "$(intake_name "$1") is too big (a file may have $max bytes)"; return 1; }
}

# take_tree SRC DEST: a copy of the directory SRC's regular files and
# directories (eight levels at most) in DEST; links, FIFOs, devices and
# sockets are left out.  Fails, saying why, past INTAKE_TREE_FILES files
# and directories or INTAKE_TREE_MAX bytes.
take_tree() {
	local src=$1 dest=$2 t size p total=0 n=0
	mkdir -p "$dest" || return 1
	while IFS=' ' read -r -d '' t size p; do
		n=$((n + 1)) total=$((total + size))
		[ "$n" -le "$INTAKE_TREE_FILES" ] ||
			{ echo "$(intake_name "$src") has more than $INTAKE_TREE_FILES files and directories"; return 1; }
		if [ "$t" = d ]; then
			mkdir -p "$dest/$p"
			continue
		fi
		[ "$total" -le "$INTAKE_TREE_MAX" ] ||
			{ echo "$(intake_name "$src") has more than $INTAKE_TREE_MAX bytes"; return 1; }
		take_file "$src/$p" "$dest/$p" || return 1
		# A tree's scripts keep their execute bit (never a set-id bit).
		[ ! -x "$src/$p" ] || chmod 755 "$dest/$p"
	done < <(find "$src" -mindepth 1 -maxdepth 8 \( -type d -printf 'd 0 %P\0' \) -o \
		\( -type f -printf 'f %s %P\0' \))
}

# stage_programs STAGE MASTER SLAVE: copy both programs.
stage_programs() {
	local p
	for p in "$2:master" "$3:slave"; do
		if [ -e "${p%:*}" ] || [ -L "${p%:*}" ]; then
			stage_program "$1" "${p%:*}" "${p##*:}"
		else
			fatal "$1" "no ${p##*:} program (${p%:*})"
		fi
	done
}

# stage_program STAGE FILE NAME: copy one program as bin/NAME.
stage_program() {
	local why
	mkdir -p "$1/input/bin"
	why=$(take_file "$2" "$1/input/bin/$3") || { rm -f "$1/input/bin/$3"; fatal "$1" "$why"; return; }
	chmod 755 "$1/input/bin/$3"
	info "$1" "$3" "$2 ($(file -b "$1/input/bin/$3" 2>/dev/null | cut -d, -f1,2))"
}

# stage_modules STAGE KO...: copy the modules; load order as given.
stage_modules() {
	local stage=$1 src ko strict=1 why
	shift
	mkdir -p "$stage/input/modules"
	: >"$stage/input/modules/order"
	for src; do
		ko=$stage/input/modules/${src##*/}
		why=$(take_file "$src" "$ko") || { rm -f "$ko"; fatal "$stage" "$why"; return; }
		echo "${ko##*/}" >>"$stage/input/modules/order"
		[ "$(modinfo -F name "$ko" 2>/dev/null)" = syncdev ] || strict=0
		info "$stage" module "$(intake_name "$src") ($(modinfo -F vermagic "$ko" 2>/dev/null | cut -d' ' -f1))"
	done
	echo "$strict" >"$stage/strict-pages"
}

# kbuild_dirs DIR: DIR and its subdirectories (two levels) that hold a
# Kbuild file or a Makefile naming obj- targets (regular files only),
# NUL-separated (a folder's name may hold a newline).
kbuild_dirs() {
	find "$1" -maxdepth 2 \( -name Kbuild -o -name Makefile \) -type f -print0 |
		xargs -0 -r grep -lZ '^[[:space:]]*obj-' | xargs -0 -r -n 1 dirname -z | sort -zu
}

# build_verdict STAGE WHAT RC WHY LOG [WHERE]: the fatal verdict of a
# sandboxed build (scripts/grade/grade-sandbox's exit status RC and
# reason WHY), its first error line from LOG when it just failed.
build_verdict() {
	local err
	case $3 in
	0) return ;;
	1) err=$(grep -a -m 1 -E 'error|Error' "$5" | sed 's|/tmp/build/||g' | tr -d '[:cntrl:]' | cut -c 1-200)
	   fatal "$1" "$2 failed${6:+ in $6}${err:+: $err}" ;;
	3) fatal "$1" "$2 could not run: $4" ;;
	*) fatal "$1" "$2 $4" ;;
	esac
}

# The script kbuild runs in the sandbox: each tree (KDIR, then the trees'
# directories under /tmp/build), then each again with the others'
# symbols when there are several (the course's ksocket, master_device,
# slave_device).
# shellcheck disable=SC2016
kbuild_script='kdir=$1; shift
for d; do
	make -C "$kdir" M="/tmp/build$d" KBUILD_MODPOST_WARN=1 modules ||
		{ echo "syncdev-kbuild: failed in $d"; exit 1; }
done
[ $# -gt 1 ] || exit 0
syms=$(find /tmp/build -name Module.symvers | tr "\n" " ")
for d; do
	make -C "$kdir" M="/tmp/build$d" KBUILD_EXTRA_SYMBOLS="$syms" KBUILD_MODPOST_WARN=1 modules
done'

# stage_module_src STAGE DIR: build a copy of DIR's Kbuild tree(s) against
# the guest kernel in the build sandbox (scripts/grade/grade-sandbox),
# then stage what it built.
stage_module_src() {
	local stage=$1 d why rc tmp kos sb
	local log=$1/module-build.log
	tmp=$(mktemp -d) || return
	why=$(take_tree "$2" "$tmp/src") || { fatal "$stage" "module sources: $why"; rm -rf "$tmp"; return; }
	: >"$log"
	mapfile -d '' -t dirs < <(kbuild_dirs "$tmp/src")
	if [ ${#dirs[@]} = 0 ]; then
		fatal "$stage" "module build failed: no Kbuild file or Makefile with obj- lines in $2"
		rm -rf "$tmp"
		return
	fi
	for d in "${!dirs[@]}"; do dirs[d]=${dirs[d]#"$tmp/src"}; done
	mapfile -t sb < <(vm_sandbox_args)
	why=$(scripts/grade/grade-sandbox "${sb[@]}" --in "$tmp/src" --out "$tmp/out" \
		--log "$log" --keep '*.ko' -- bash -c "$kbuild_script" bash "$VM_KDIR" "${dirs[@]}")
	rc=$?
	d=$(sed -n 's/^syncdev-kbuild: failed in //p' "$log" | tail -n 1 | tr -d '[:cntrl:]' | cut -c 1-100)
	build_verdict "$stage" "module build" "$rc" "$why" "$log" "$(basename "$2")$d"
	mapfile -d '' -t kos < <(find "$tmp/out" -type f -name '*.ko' -print0 2>/dev/null | sort -z)
	if [ "$rc" = 0 ] && [ ${#kos[@]} = 0 ]; then
		fatal "$stage" "module build made no .ko file"
	elif [ "$rc" = 0 ]; then
		local intake_base=$tmp/out
		info "$stage" "module source" "$2 (built against $VM_KVER in the build sandbox; log: $log)"
		stage_modules "$stage" "${kos[@]}"
	fi
	rm -rf "$tmp"
}

# first_file DIR NAME...: the first entry called NAME that is not a
# directory (top level first, then one directory down, each level in
# byte order) in DIR: links and special files too, so that taking them is
# refused by name.  Names are read NUL-separated and relative to DIR: no
# folder name (a newline in it, "..") can point the lookup elsewhere.
first_file() {
	local dir=$1 n depth p best
	shift
	for n; do
		best=""
		while IFS=' ' read -r -d '' depth p; do
			[ -z "$best" ] || [ "$depth" -lt "${best%% *}" ] ||
				{ [ "$depth" = "${best%% *}" ] && [[ $p < ${best#* } ]]; } || continue
			best="$depth $p"
		done < <(find "$dir" -mindepth 1 -maxdepth 2 ! -type d -name "$n" -printf '%d %P\0')
		[ -n "$best" ] && { printf '%s\n' "$dir/${best#* }"; return; }
	done
}

# module_files DIR: the entries named *.ko that are not directories in
# DIR and one level down, NUL-separated, sorted (links and special files
# too: taking them is refused by name).
module_files() {
	find "$1" -maxdepth 2 ! -type d -name '*.ko' -print0 | sort -z
}

# list_students DIR: the names of DIR's folders that check-name accepts,
# NUL-separated; each refused one (a newline or another C0 or C1 control
# character in it, ...) said on stderr, cleaned.  "a" and "a<newline>"
# never become one name: a name is never cut or rewritten.
list_students() {
	local d why
	for d in "$1"/*/; do
		[ -d "$d" ] || continue
		d=${d%/} d=${d##*/}
		if ! why=$(build/gradeclass check-name "$d" 2>&1); then
			echo "grade: not graded: ${why#*: }" >&2
			# A name with a control character is left out of every
			# list; another refused one (a reserved name, a leading
			# '-') is listed, and the summary shows it refused.
			case $why in *"control character"*) continue ;; esac
		fi
		printf '%s\0' "$d"
	done
}

# compile_program STAGE SRC NAME: a student's single-file program, built
# in the build sandbox from a copy of its directory (its headers).
compile_program() {
	local why rc tmp src=${2##*/}
	mkdir -p "$1/input/bin"
	why=$(intake_problem "$2" "$INTAKE_FILE_MAX")
	[ -z "$why" ] || { fatal "$1" "$why"; return; }
	tmp=$(mktemp -d) || return
	why=$(take_tree "$(dirname "$2")" "$tmp/src") || { fatal "$1" "$3 sources: $why"; rm -rf "$tmp"; return; }
	why=$(scripts/grade/grade-sandbox --in "$tmp/src" --out "$tmp/out" --log "$1/$3-build.log" \
		--keep "$3.grade-bin" -- cc -O2 -static -I. -o "$3.grade-bin" "$src" -lm -pthread)
	rc=$?
	build_verdict "$1" "$3 build" "$rc" "$why" "$1/$3-build.log"
	if [ "$rc" = 0 ] && why=$(take_file "$tmp/out/$3.grade-bin" "$1/input/bin/$3"); then
		chmod 755 "$1/input/bin/$3"
		info "$1" "$3" "$2 (compiled in the build sandbox: cc -O2 -static)"
	elif [ "$rc" = 0 ]; then
		fatal "$1" "$3 build: $why"
	fi
	rm -rf "$tmp"
}

# stage_student STAGE DIR: a student directory, as docs/grading.md says:
# programs master and slave (or master.c and slave.c), modules as a Kbuild
# tree, or *.ko, or none (ours).  What the student gave is never replaced
# by ours: a link or special file there is a verdict.
stage_student() {
	local stage=$1 dir=$2 p f kos
	intake_base=$dir
	for p in master slave; do
		f=$(first_file "$dir" "$p")
		if [ -n "$f" ]; then
			stage_program "$stage" "$f" "$p"
		elif f=$(first_file "$dir" "$p.c") && [ -n "$f" ]; then
			compile_program "$stage" "$f" "$p"
		else
			fatal "$stage" "no $p program (neither $p nor $p.c in $dir)"
		fi
	done
	[ -e "$dir/grade.cli" ] || [ -L "$dir/grade.cli" ] && stage_cli "$stage" "$dir/grade.cli"
	if [ -n "$(kbuild_dirs "$dir" | tr -d '\0')" ]; then
		stage_module_src "$stage" "$dir"
		return
	fi
	mapfile -d '' -t kos < <(module_files "$dir")
	[ ${#kos[@]} -gt 0 ] || kos=("$VM_MODULE")
	stage_modules "$stage" "${kos[@]}"
}

# cli_preset NAME: "MASTER_TEMPLATE|SLAVE_TEMPLATE" of a preset command
# line (docs/grading.md, "Command lines"); fails for an unknown name.
cli_preset() {
	case $1 in
	2020) echo 'master {n} {files} {method}|slave {n} {files} {method} {ip}' ;;
	single-file) echo 'master {file} {method}|slave {file} {method} {ip}' ;;
	options) echo 'master {flag} {files}|slave {flag} {ip} {files}' ;;
	*) return 1 ;;
	esac
}

# cli_check SIDE TEMPLATE: why TEMPLATE is no command line of SIDE, if so.
cli_check() {
	case $2 in
	"$1" | "$1 "*) ;;
	*) echo "the $1's command line must start with '$1': '$2'"; return ;;
	esac
	case $2 in
	*'{file}'* | *'{files}'* | *'{prefix}'*) ;;
	*) echo "no {file}, {files} or {prefix} in '$2'" ;;
	esac
	case $1:$2 in slave:*'{ip}'*|master:*) ;; slave:*) echo "no {ip} in '$2'" ;; esac
}

# stage_cli STAGE FILE: a student's grade.cli ("preset NAME", "master
# TEMPLATE", "slave TEMPLATE" lines; # comments) into STAGE/cli.
stage_cli() {
	local stage=$1 k v m=$cli s=$slave_cli p bad why
	why=$(take_file "$2" "$stage/grade.cli" 65536) || { fatal "$stage" "$why"; return; }
	while read -r k v; do
		case $k in
		''|'#'*) ;;
		preset) p=$(cli_preset "$v") || { fatal "$stage" "grade.cli: unknown preset '$v'"; return; }
			m=${p%|*} s=${p#*|} ;;
		# "master {n} {files} {method}" or the template after the key
		# alone ("master {n} ..." is then "master master {n} ...").
		master) m="master ${v#master }" ;;
		slave) s="slave ${v#slave }" ;;
		*) fatal "$stage" "grade.cli: unknown line '$k $v'"; return ;;
		esac
	done <"$stage/grade.cli"
	bad=$(cli_check master "$m")$(cli_check slave "$s")
	[ -z "$bad" ] || { fatal "$stage" "grade.cli: $bad"; return; }
	printf '%s\n%s\n' "$m" "$s" >"$stage/cli"
	info "$stage" "command lines" "from $2"
}

# cli_of STAGE SIDE: the template SIDE runs with.
cli_of() {
	local n=1 t=$cli
	[ "$2" = slave ] && n=2 t=$slave_cli
	[ -f "$1/cli" ] && t=$(sed -n "${n}p" "$1/cli")
	echo "$t"
}

# sq VALUE: VALUE single-quoted for sh.
sq() { printf "'%s'" "${1//\'/\'\\\'\'}"; }

# write_conf STAGE: the cases for scripts/grade/guest/grade.sh.
write_conf() {
	local strict
	strict=$(cat "$1/strict-pages" 2>/dev/null || echo 0)
	mkdir -p "$1/input"
	{
		echo "GRADE_CLI=$(sq "$(cli_of "$1" master)")"
		echo "GRADE_SLAVE_CLI=$(sq "$(cli_of "$1" slave)")"
		echo "GRADE_DATA='$data'"
		echo "GRADE_METHODS='$methods'"
		echo "GRADE_TIMEOUT=$timeout"
		echo "GRADE_PAGE_RE=$(sq "$page_re")"
		echo "GRADE_STRICT_PAGES=$strict"
		echo "GRADE_STRICT_TIME=$(build/gradeclass rubric --strict-time-line "$rubric")"
		echo "GRADE_LEGACY_SEND=$(build/gradeclass rubric --legacy-send-result "$rubric")"
		echo "GRADE_LEGACY_READ=$(build/gradeclass rubric --legacy-read "$rubric")"
	} >"$1/input/grade.conf"
}
