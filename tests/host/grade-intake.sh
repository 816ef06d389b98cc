#!/bin/bash
# What the grader takes from a submission and which folders it grades,
# without a boot: the program lookup
# (first_file) on folders named "x<newline>0 build" and "x<newline>0 .."
# returns the submission's own file, never the grader's build/master or a
# file above the submission; the module lookup likewise; the batch's
# students (list_students) leave out "a-victim<newline>" and names with
# ESC or C1 characters, keep "a-victim" once, and say so without a
# control character on the terminal.  Then the README's example as root:
# an --out that QEMU's user cannot enter is no error (the work directory
# is a private one under /var/tmp, removed at the end), and as an
# ordinary user (tests/tools/asuser) --out in their own directory.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. tests/lib.sh
# shellcheck source=scripts/grade/grade-stage.sh
. scripts/grade/grade-stage.sh

tmp=$(mktemp -d "${TMPDIR:-/tmp}/grade-intake.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
chmod 755 "$tmp"

# Attack 2: a folder whose name holds a newline and a depth-like prefix.
s=$tmp/sub/eve
mkdir -p "$s/x"$'\n'"0 build" "$s/x"$'\n'"0 .." "$s/src"
echo honest >"$s/src/master"
echo planted >"$tmp/sub/master"
echo inner >"$s/x"$'\n'"0 build/master"
got=$(first_file "$s" master)
check_equal "first_file: a newline in a folder name does not reach build/master" \
	"$(cat "$got")" "$(cat "$s/src/master" 2>/dev/null || echo x)"
check_equal "first_file: the path is inside the submission" "${got#"$s"/}" "src/master"
rm "$s/src/master"
got=$(first_file "$s" master)
check_equal "first_file: the folder with the newline is the submission's own" "$(cat "$got")" inner
rm "$s/x"$'\n'"0 build/master"
echo dotdot >"$s/x"$'\n'"0 ../master"
got=$(first_file "$s" master)
check_equal "first_file: 'x<newline>0 ..' is a folder, never the parent" "$(cat "$got")" dotdot
rm "$s/x"$'\n'"0 ../master"
check_equal "first_file: no master in the submission: none (not the one above it)" \
	"$(first_file "$s" master)" ""
echo top >"$s/master"
check_equal "first_file: the top level first" "$(cat "$(first_file "$s" master)")" top
mkdir -p "$s/m"$'\n'"build"
: >"$s/m"$'\n'"build/syncdev.ko"
mapfile -d '' -t kos < <(module_files "$s")
check_equal "module lookup: one .ko, inside the submission" "${#kos[@]}:${kos[0]#"$s"/}" \
	"1:m"$'\n'"build/syncdev.ko"

# Attack 9: names with a newline, ESC or C1 characters.
c=$tmp/class
mkdir -p "$c/a-victim" "$c/a-victim"$'\n' "$c/b"$'\033'"]0;x"$'\007' "$c/c"$'\302\233'"2J" \
	"$c/d"$'\302\205' "$c/ok"
mapfile -d '' -t names < <(list_students "$c" 2>"$tmp/err")
check_equal "list_students: a-victim and ok, each once" "${names[*]}" "a-victim ok"
check_equal "list_students: four names refused" "$(grep -c 'not graded' "$tmp/err")" 4
check_equal "list_students: no control character on the terminal" \
	"$(LC_ALL=C grep -c "$(printf '[\001-\010\013-\037\177]\|\302[\200-\237]')" "$tmp/err")" 0
check_output "list_students: the refusal names the folder, cleaned" \
	"not graded: student name refused: a control character \(byte 0x0a\) in the name \(the folder 'a-victim '\)" \
	cat "$tmp/err"

# The README's example, as root and as an ordinary user, up to the first
# check after the work directory is set up (--only a student there is
# not: no boot).
readme() {
	"$@" scripts/grade/grade --batch "$home/submissions" --out "$home/grading" --only nobody
}
if [ "$(id -u)" = 0 ]; then
	home=$tmp/root-home
	mkdir -p "$home/submissions/alice"
	chmod 700 "$home"
	before=$(ls -d /var/tmp/syncdev-grade.* 2>/dev/null | wc -l)
	check_output "as root: --out in a 0700 home is no error (QEMU's work directory is elsewhere)" \
		"--only nobody: no such student" readme env
	check_equal "as root: the private work directory is gone at the end" \
		"$(ls -d /var/tmp/syncdev-grade.* 2>/dev/null | wc -l)" "$before"
	uid=$(id -u nobody) gid=$(id -g nobody)
	home=$tmp/user-home
	mkdir -p "$home/submissions/alice"
	chown -R "$uid:$gid" "$home"
	chmod 700 "$home"
	mkdir -p "$tmp/user-vm"
	chown "$uid:$gid" "$tmp/user-vm"
	check_output "as an ordinary user: --out in their own home" "--only nobody: no such student" \
		readme build/tests/tools/asuser "$uid" "$gid" \
		env HOME="$home" SYNCDEV_VM_DIR="$tmp/user-vm"
	check "as an ordinary user: the work directory is theirs, in --out" test -d "$home/grading/work"
fi
finish
