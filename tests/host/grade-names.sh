#!/bin/sh
# build/gradeclass check-name: the student names the batch may use as
# folders.  Every name the grader's scripts and gradeclass write at the top
# of the class's output folder (found in their sources: "$out/NAME" in
# scripts/grade/, "%s/NAME" and write_file's names in user/gradeclass/)
# is refused and listed by --help, so a name added there without being
# reserved fails here; then each other rule and ordinary names.
. tests/lib.sh

g=build/gradeclass
written=$({
	grep -oh '\$out/[A-Za-z0-9._-]*' scripts/grade/grade scripts/grade/*.sh | sed 's|^\$out/||'
	grep -oh 'out, "[A-Za-z0-9._-]*"' user/gradeclass/*.c | sed 's/^out, "//; s/"$//'
	grep -oh '"%s/[A-Za-z0-9._-]*", out' user/gradeclass/*.c | sed 's|^"%s/||; s|", out$||'
	grep -oh 'write_file(c, dir, "[A-Za-z0-9._-]*"' user/gradeclass/*.c | sed 's/.*, "//; s/"$//'
} | grep . | sort -u)
check "the sources name at least the class's tables and reports" \
	sh -c "[ \$(echo '$written' | wc -w) -ge 8 ]"
help=$("$g" --help)
for n in $written; do
	check_exit "check-name refuses '$n', a name the output folder uses" 1 "$g" check-name "$n"
	case $help in
	*"$n"*) pass "--help lists '$n'" ;;
	*) fail "--help lists '$n'" "not in gradeclass --help" ;;
	esac
done
check_output "check-name says why, naming the reserved name" \
	"student name refused: 'work' is a name the class's output folder uses itself" "$g" check-name Work
check_exit "check-name refuses an empty name" 1 "$g" check-name ""
check_exit "check-name refuses '.'" 1 "$g" check-name .
check_exit "check-name refuses '..'" 1 "$g" check-name ..
check_output "check-name refuses a '/'" "a '/' in the name" "$g" check-name a/b
check_output "check-name refuses a CR" "control character \(byte 0x0d\)" "$g" check-name "$(printf 'a\rb')"
check_output "check-name refuses a tab" "control character \(byte 0x09\)" "$g" check-name "$(printf 'a\tb')"
check_output "check-name refuses a leading '-'" "starts with '-'" "$g" check-name -rf
check_output "check-name refuses 101 bytes" "longer than 100 bytes" "$g" check-name "$(printf '%0101d' 0)"
check_exit "check-name accepts 100 bytes" 0 "$g" check-name "$(printf '%0100d' 0)"
check_exit "check-name accepts an ordinary name" 0 "$g" check-name b01902001
check_exit "check-name accepts a UTF-8 name with a space" 0 "$g" check-name "$(printf 'Zo\303\253 W')"
check_exit "check-name without a name is a usage error" 2 "$g" check-name
check_exit "check-name with two names is a usage error" 2 "$g" check-name a b
finish
