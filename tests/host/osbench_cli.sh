#!/bin/sh
# The osbench command line as the experiment framework gives it: every
# command's --help comes from its descriptor (usage, its option table, the
# common options it takes), every option the help lists is one the parser
# knows, unknown options are usage errors, and the course programs answer
# under their own names.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
OSB=build/osbench
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

cmds=$($OSB --help | sed -n 's/^  \([a-z0-9-]*\)  *[a-zA-Z].*/\1/p')
check_equal "osbench --help lists 25 commands" "$(echo "$cmds" | wc -w)" 25
for c in $cmds; do
	$OSB "$c" --help >"$T/$c.help" 2>"$T/err"
	check_equal "$c --help exits 0, nothing on stderr" "$?:$(cat "$T/err")" "0:"
	check_output "$c --help starts with its usage" "^usage: (osbench )?$c( |$)" \
		head -n 1 "$T/$c.help"
	check_output "$c --help ends with --help" "^  --help +this text$" \
		tail -n 1 "$T/$c.help"
	# Each option of the help is known to the parser: given with a value
	# and followed by an unknown option, it is parsed (or its value
	# refused), never called unknown, and nothing runs (exit 2).
	for o in $(sed -n 's/^  \(--[a-z0-9-]*\).*/\1/p' "$T/$c.help" | grep -v '^--help$'); do
		$OSB "$c" "$o=x" --no-such-option >"$T/out" 2>"$T/err"
		rc=$?
		if [ $rc = 2 ] && ! grep -q "unknown option '$o'" "$T/err" && [ ! -s "$T/out" ]; then
			pass "$c $o: known to the parser"
		else
			fail "$c $o: known to the parser" "exit $rc: $(cat "$T/err")"
		fi
	done
	check_exit "$c: unknown option is a usage error" 2 $OSB "$c" --no-such-option
done
check_equal "one --quick text in every help" \
	"$(cat "$T"/*.help | grep '^  --quick' | sort -u | wc -l)" 1
check_output "a command without a curve names --plot" "sweep .*--plot|has no curve" \
	$OSB overhead --plot "$T/x.svg"
check_exit "a command without scratch files refuses --dir" 2 $OSB sweep --dir "$T" "$T"
check_output "course program help under its own name" "^usage: run <file>" build/run --help
check_output "run2 help under its own name" "^usage: run2 " build/run2 --help
check_output "fast help under its own name" "^usage: fast " build/fast --help
# The hint names the command as the user types it.
check_output "an osbench command's hint names osbench" \
	"^machine: unknown option '--nope' \(see osbench machine --help\)$" \
	$OSB machine --nope
check_output "a course program's hint names it alone" \
	"^fast: unexpected argument 'b' \(see fast --help\)$" build/fast a b
check_exit "unknown command" 2 $OSB no-such-command
check_exit "osbench without a command" 2 $OSB
finish
