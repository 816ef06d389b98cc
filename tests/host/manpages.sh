#!/bin/sh
# shellcheck shell=sh
# What the programs say of themselves and what their man pages and the
# Makefile's help say cannot drift apart: every option and exit status
# of master's, slave's and tcpcopy's --help is in the man page and the
# other way round (what they say of them: manclaims.sh); osbench's man
# page names exactly the commands of osbench --help,
# in its order; the commands osbench --help says print no table are the
# ones whose --help offers no --csv/--json, and every command that offers
# them takes them; every exit status a command's --help names is in the
# man page; make help names every target of the Makefile.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
B=build
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# words FILE: the lines of FILE sorted and joined by spaces.
words() { sort -u "$1" | tr '\n' ' ' | sed 's/ $//'; }

# man_section PAGE NAME: the lines of section .SH NAME of PAGE.
man_section() {
	awk -v s="$2" '/^\.SH /{on = (substr($0, 5) == s); next} on' "$1"
}

for p in master slave tcpcopy; do
	$B/$p --help >"$T/$p.help"
	# Options: "  -b, --buffer SIZE" and "      --device PATH" lines.
	sed -n 's/^ *\(-[a-z], \)\{0,1\}\(--[a-z-]*\).*/\1\2/p' "$T/$p.help" |
		tr ',' '\n' | tr -d ' ' | sed '/^$/d' >"$T/$p.hopt"
	man_section docs/man/$p.1 OPTIONS | grep '^\.B' |
		grep -o '\\-\(\\-[a-z]\(\\-\|[a-z]\)*\|[a-z]\)\b' | sed 's/\\//g' >"$T/$p.mopt"
	check_equal "$p: --help and $p.1 list the same options" \
		"$(words "$T/$p.mopt")" "$(words "$T/$p.hopt")"
	# Exit statuses: "Exit status: 0 ...; 1 ..., 2 ..." against ".B N".
	tr '\n' ' ' <"$T/$p.help" | sed 's/.*Exit status: //' |
		grep -o '\(^\|[;,] \)[0-9] ' | tr -dc '0-9\n' >"$T/$p.hexit"
	man_section docs/man/$p.1 'EXIT STATUS' | sed -n 's/^\.B \([0-9]\)$/\1/p' >"$T/$p.mexit"
	check_equal "$p: --help and $p.1 give the same exit statuses" \
		"$(words "$T/$p.mexit")" "$(words "$T/$p.hexit")"
done

$B/osbench --help >"$T/osbench.help"
sed -n 's/^  \([a-z0-9-][a-z0-9-]*\)  *[a-zA-Z].*/\1/p' "$T/osbench.help" >"$T/cmds"
# The man page's commands: the first word after each .TP in DESCRIPTION.
man_section docs/man/osbench.1 DESCRIPTION |
	awk '/^\.TP/{getline; sub(/^\.B[IR]? /, ""); split($0, w, " "); print w[1]}' |
	sed 's/\\//g' >"$T/mcmds"
check_equal "osbench.1 names the commands of osbench --help, in order" \
	"$(tr '\n' ' ' <"$T/mcmds")" "$(tr '\n' ' ' <"$T/cmds")"

# Tables: the commands osbench --help excepts, against their own --help.
sed -n '/^except these/{n;p;}' "$T/osbench.help" | tr -d ' ' | tr ',' '\n' >"$T/notable"
: >"$T/nocsv"
while read -r c; do
	$B/osbench "$c" --help >"$T/c.help"
	if grep -q -e '--csv' "$T/c.help" && grep -q -e '--json' "$T/c.help"; then
		for f in --csv --json; do
			check_output "$c --help offers $f: $c takes it" \
				"unknown option '--no-such-option'" \
				$B/osbench "$c" $f --no-such-option
		done
	else
		echo "$c" >>"$T/nocsv"
		check_output "$c offers no --csv: it refuses it" "unknown option '--csv'" \
			$B/osbench "$c" --csv --no-such-option
	fi
	# Every "exit N" of its --help is an exit status of the man page.
	for n in $(grep -o 'exit \(status \(is \)\{0,1\}\)\{0,1\}[0-9]' "$T/c.help" | grep -o '[0-9]$'); do
		check_output "$c: exit $n of its --help is in osbench.1" "^\.B $n$" \
			man_section docs/man/osbench.1 'EXIT STATUS'
	done
done <"$T/cmds"
check_equal "osbench --help names the commands without a table" \
	"$(words "$T/notable")" "$(words "$T/nocsv")"
man_section docs/man/osbench.1 DESCRIPTION | tr '\n' ' ' |
	sed -n 's/.*for machines, except \.BR \(.*\), which print.*/\1/p' |
	sed 's/"[^"]*"/ /g; s/  */ /g' | tr ' ' '\n' | sed '/^$/d' >"$T/mnotable"
check_equal "osbench.1 names the commands without a table" \
	"$(words "$T/mnotable")" "$(words "$T/nocsv")"

# make help: every target of the Makefile.
make help >"$T/make.help"
sed -n 's/^\([a-z][a-z-]*\):.*/\1/p' Makefile | grep -v '^all$' | sort -u >"$T/targets"
while read -r t; do
	check_output "make help names $t" "(^|[ ;])make $t( |:|$)|\($t\)" cat "$T/make.help"
done <"$T/targets"
finish
