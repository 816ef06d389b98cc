#!/bin/sh
# scripts/lint/check-cycles on a made-up tree: two files of one folder that
# call each other fail it, naming both; a chain of three that closes on
# itself too; the same files with the call back removed pass, and so do
# calls between folders.
. tests/lib.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# tree NAME FILE=BODY...: user/ sources under $tmp/NAME, compiled into
# $tmp/NAME/build/obj.
tree() {
	_t=$tmp/$1
	shift
	for _f; do
		mkdir -p "$_t/$(dirname "${_f%%=*}")" "$_t/build/obj/$(dirname "${_f%%=*}")"
		printf '%s\n' "${_f#*=}" >"$_t/${_f%%=*}"
		cc -c -o "$_t/build/obj/${_f%%.c=*}.o" "$_t/${_f%%=*}" || return 1
	done
}
tree pair 'user/x/a.c=int b(void); int a(void) { return b(); }' \
	'user/x/b.c=int a(void); int b(void) { return a(); }' \
	'user/y/c.c=int a(void); int c(void) { return a(); }'
check_exit "two files of a folder that call each other fail" 1 \
	scripts/lint/check-cycles --root "$tmp/pair"
check_output "both named, under their folder" '^    user/x: user/x/a\.c user/x/b\.c$' \
	scripts/lint/check-cycles --root "$tmp/pair"

tree three 'user/x/a.c=int b(void); int a(void) { return b(); }' \
	'user/x/b.c=int c(void); int b(void) { return c(); }' \
	'user/x/c.c=int a(void); int c(void) { return a(); }'
check_output "a chain of three that closes on itself fails" \
	'^    user/x: user/x/a\.c user/x/b\.c user/x/c\.c$' scripts/lint/check-cycles --root "$tmp/three"

tree chain 'user/x/a.c=int b(void); int a(void) { return b(); }' \
	'user/x/b.c=int b(void) { return 0; }' \
	'user/y/c.c=int a(void); int c(void) { return a(); }' \
	'user/x/d.c=int c(void); int d(void) { return c(); }'
check_output "one way, and across folders: passes" '^PASS cycles \(user\): .*\(2 folders\)$' \
	scripts/lint/check-cycles --root "$tmp/chain"
check_exit "passes with 0" 0 scripts/lint/check-cycles --root "$tmp/chain"
check_output "no objects: says so" '^FAIL cycles: no objects in .*: run make first$' \
	scripts/lint/check-cycles --root "$tmp/none"
check_exit "an unknown option is a usage error" 2 scripts/lint/check-cycles --bogus

# The module: kernel/*.o of sources that exist, functions only.
tree kpair 'user/x/a.c=int a(void) { return 0; }'
mkdir -p "$tmp/kpair/kernel"
printf 'int b(void);\nint a(void) { return b(); }\n' >"$tmp/kpair/kernel/a.c"
printf 'int a(void);\nint b(void) { return a(); }\n' >"$tmp/kpair/kernel/b.c"
printf 'int param;\nint c(void) { return 0; }\n' >"$tmp/kpair/kernel/c.c"
printf 'extern int param;\nint d(void) { return param; }\n' >"$tmp/kpair/kernel/d.c"
for _c in a b c d; do cc -c -o "$tmp/kpair/kernel/$_c.o" "$tmp/kpair/kernel/$_c.c"; done
check_output "two kernel files that call each other fail" \
	'^    kernel: kernel/a\.c kernel/b\.c$' scripts/lint/check-cycles --root "$tmp/kpair"
rm "$tmp/kpair/kernel/b.o"
printf 'int b(void) { return 0; }\n' >"$tmp/kpair/kernel/b.c"
cc -c -o "$tmp/kpair/kernel/b.o" "$tmp/kpair/kernel/b.c"
check_output "a kernel call one way and a parameter used by all pass" \
	'^PASS cycles \(kernel\)' scripts/lint/check-cycles --root "$tmp/kpair"
rm "$tmp/kpair/kernel"/*.o
check_output "kernel sources without objects: says so" \
	'^FAIL cycles \(kernel\): no objects in kernel/' scripts/lint/check-cycles --root "$tmp/kpair"

# Shell: two files of a folder that share a shell and call each other.
tree spair 'user/x/a.c=int a(void) { return 0; }'
mkdir -p "$tmp/spair/scripts/x"
printf '#!/bin/sh\n. scripts/x/lib.sh\nmain_step() { lib_step; }\nmain_step\n' >"$tmp/spair/scripts/x/run"
printf '# shellcheck shell=sh\nlib_step() { main_step; }\n' >"$tmp/spair/scripts/x/lib.sh"
check_output "two shell files in one shell that call each other fail" \
	'^    scripts/x: scripts/x/lib\.sh scripts/x/run$' scripts/lint/check-cycles --root "$tmp/spair"
printf '# shellcheck shell=sh\nlib_step() { :; }\n' >"$tmp/spair/scripts/x/lib.sh"
printf '#!/bin/sh\nmain_step() { :; }\n' >"$tmp/spair/scripts/x/other"
printf '#!/bin/sh\nlib_step() { main_step; }\n' >"$tmp/spair/scripts/x/third"
check_output "one way, or files that never share a shell: passes" \
	'^PASS cycles \(shell\)' scripts/lint/check-cycles --root "$tmp/spair"
finish
