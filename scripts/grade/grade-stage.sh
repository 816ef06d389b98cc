# shellcheck shell=bash disable=SC2154
# Sourced by scripts/grade/grade: put one student's programs and modules into the
# shared directory STAGE, which the guests see at /share:
#
#   STAGE/bin/master, bin/slave     the programs
#   STAGE/modules/*.ko, order       the modules, in load order
#   STAGE/grade.conf                the cases (scripts/guest/grade.sh)
#   STAGE/cli                       the student's own command lines (the
#                                   master's template, then the slave's),
#                                   from grade.cli in the submission
#   STAGE/info                      what was staged, for the report
#   STAGE/fatal                     why nothing can run (a failed build,
#                                   a missing program), if so
#   STAGE/results/                  what the guests write
#
# Uses the globals of scripts/grade/grade (data, methods, timeout, page_re, cli,
# slave_cli).

# fatal STAGE WHY: the student's cases fail without a boot, for WHY.
fatal() {
	[ -f "$1/fatal" ] || echo "$2" >"$1/fatal"
}

# info STAGE KEY VALUE: a line of STAGE/info.
info() { printf '%s: %s\n' "$2" "$3" >>"$1/info"; }

# stage_programs STAGE MASTER SLAVE: copy both programs.
stage_programs() {
	local p
	for p in "$2:master" "$3:slave"; do
		if [ -f "${p%:*}" ]; then
			stage_program "$1" "${p%:*}" "${p##*:}"
		else
			fatal "$1" "no ${p##*:} program (${p%:*})"
		fi
	done
}

# stage_program STAGE FILE NAME: copy one program as bin/NAME.
stage_program() {
	mkdir -p "$1/bin"
	cp "$2" "$1/bin/$3" && chmod +x "$1/bin/$3"
	info "$1" "$3" "$2 ($(file -b "$2" 2>/dev/null | cut -d, -f1,2))"
}

# stage_modules STAGE KO...: copy the modules; load order as given.
stage_modules() {
	local stage=$1 ko strict=1
	shift
	mkdir -p "$stage/modules"
	: >"$stage/modules/order"
	for ko; do
		cp "$ko" "$stage/modules/" || { fatal "$stage" "cannot copy module $ko"; return; }
		echo "${ko##*/}" >>"$stage/modules/order"
		[ "$(modinfo -F name "$ko" 2>/dev/null)" = syncdev ] || strict=0
		info "$stage" module "$ko ($(modinfo -F vermagic "$ko" 2>/dev/null | cut -d' ' -f1))"
	done
	echo "$strict" >"$stage/modules/strict"
}

# kbuild_dirs DIR: DIR and its subdirectories (two levels) that hold a
# Kbuild file or a Makefile naming obj- targets.
kbuild_dirs() {
	find "$1" -maxdepth 2 \( -name Kbuild -o -name Makefile \) -type f -print0 |
		xargs -0 -r grep -l '^[[:space:]]*obj-' | xargs -r -n 1 dirname | sort -u
}

# stage_module_src STAGE DIR: build a copy of DIR's Kbuild tree(s) against
# the guest kernel (vm_kbuild), then stage what it built.  Several trees
# (the course's ksocket, master_device, slave_device) see each other's
# symbols on a second pass.
stage_module_src() {
	local stage=$1 d syms kos
	local src=$1/module-src log=$1/module-build.log
	rm -rf "$src"
	cp -r "$2" "$src"
	: >"$log"
	mapfile -t dirs < <(kbuild_dirs "$src")
	if [ ${#dirs[@]} = 0 ]; then
		fatal "$stage" "module build failed: no Kbuild file or Makefile with obj- lines in $2"
		return
	fi
	for d in "${dirs[@]}"; do
		vm_kbuild "$d" KBUILD_MODPOST_WARN=1 modules >>"$log" 2>&1 || {
			fatal "$stage" "module build failed in $(basename "$2")${d#"$src"}: $(grep -m 1 -E 'error|Error' "$log" | sed "s|$src/||g" | cut -c 1-200)"
			return
		}
	done
	if [ ${#dirs[@]} -gt 1 ]; then
		syms=$(find "$src" -name Module.symvers | tr '\n' ' ')
		for d in "${dirs[@]}"; do
			vm_kbuild "$d" KBUILD_EXTRA_SYMBOLS="$syms" \
				KBUILD_MODPOST_WARN=1 modules >>"$log" 2>&1
		done
	fi
	mapfile -t kos < <(find "$src" -name '*.ko' | sort)
	[ ${#kos[@]} -gt 0 ] || { fatal "$stage" "module build made no .ko file"; return; }
	info "$stage" "module source" "$2 (built against $VM_KVER; log: $log)"
	stage_modules "$stage" "${kos[@]}"
}

# first_file DIR NAME...: the first file called NAME (top level first,
# then one directory down) in DIR.
first_file() {
	local dir=$1 n f
	shift
	for n; do
		f=$(find "$dir" -maxdepth 2 -type f -name "$n" -printf '%d %p\n' | sort | head -n 1 | cut -d' ' -f2-)
		[ -n "$f" ] && { echo "$f"; return; }
	done
}

# compile_program STAGE SRC NAME: a student's single-file program.
compile_program() {
	mkdir -p "$1/bin"
	if cc -O2 -static -I"$(dirname "$2")" -o "$1/bin/$3" "$2" -lm -pthread \
		>"$1/$3-build.log" 2>&1; then
		info "$1" "$3" "$2 (compiled on the host: cc -O2 -static)"
	else
		fatal "$1" "$3 build failed: $(grep -m 1 'error' "$1/$3-build.log" | cut -c 1-200)"
	fi
}

# stage_student STAGE DIR: a student directory, as docs/grading.md says:
# programs master and slave (or master.c and slave.c), modules as a Kbuild
# tree, or *.ko, or none (ours).
stage_student() {
	local stage=$1 dir=$2 p f kos
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
	if [ -n "$(kbuild_dirs "$dir")" ]; then
		[ -f "$dir/grade.cli" ] && stage_cli "$stage" "$dir/grade.cli"
		stage_module_src "$stage" "$dir"
		return
	fi
	[ -f "$dir/grade.cli" ] && stage_cli "$stage" "$dir/grade.cli"
	mapfile -t kos < <(find "$dir" -maxdepth 2 -name '*.ko' | sort)
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
	case $2 in *'{file}'* | *'{files}'*) ;; *) echo "no {file} or {files} in '$2'" ;; esac
	case $1:$2 in slave:*'{ip}'*|master:*) ;; slave:*) echo "no {ip} in '$2'" ;; esac
}

# stage_cli STAGE FILE: a student's grade.cli ("preset NAME", "master
# TEMPLATE", "slave TEMPLATE" lines; # comments) into STAGE/cli.
stage_cli() {
	local stage=$1 k v m=$cli s=$slave_cli p bad
	while read -r k v; do
		case $k in
		''|'#'*) ;;
		preset) p=$(cli_preset "$v") || { fatal "$stage" "grade.cli: unknown preset '$v'"; return; }
			m=${p%|*} s=${p#*|} ;;
		master) m=$v ;;
		slave) s=$v ;;
		*) fatal "$stage" "grade.cli: unknown line '$k $v'"; return ;;
		esac
	done <"$2"
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

# write_conf STAGE: the cases for scripts/guest/grade.sh.
write_conf() {
	local strict
	strict=$(cat "$1/modules/strict" 2>/dev/null || echo 0)
	{
		echo "GRADE_CLI=$(sq "$(cli_of "$1" master)")"
		echo "GRADE_SLAVE_CLI=$(sq "$(cli_of "$1" slave)")"
		echo "GRADE_DATA='$data'"
		echo "GRADE_METHODS='$methods'"
		echo "GRADE_TIMEOUT=$timeout"
		echo "GRADE_PAGE_RE=$(sq "$page_re")"
		echo "GRADE_STRICT_PAGES=$strict"
		echo "GRADE_STRICT_TIME=$(build/gradeclass rubric --strict-time-line "$rubric")"
	} >"$1/grade.conf"
}
