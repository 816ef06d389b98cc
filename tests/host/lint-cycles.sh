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
check_output "one way, and across folders: passes" '^PASS cycles: .*\(2 folders\)$' \
	scripts/lint/check-cycles --root "$tmp/chain"
check_exit "passes with 0" 0 scripts/lint/check-cycles --root "$tmp/chain"
check_output "no objects: says so" '^FAIL cycles: no objects in .*: run make first$' \
	scripts/lint/check-cycles --root "$tmp/none"
check_exit "an unknown option is a usage error" 2 scripts/lint/check-cycles --bogus
finish
