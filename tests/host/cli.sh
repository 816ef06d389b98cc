# shellcheck shell=sh
# Command-line behaviour of master, slave and tcpcopy that needs no device:
# help, usage errors and early failures, each with its exact exit code and
# a message that names the problem.
. tests/lib.sh

B=build
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
echo data >"$T/in"
nodev="$T/no/master_device"

for p in master slave tcpcopy; do
	check_exit "$p --help exits 0" 0 $B/$p --help
	check_output "$p --help prints usage" "^usage: $p" $B/$p --help
done
check_exit "slave -h exits 0" 0 $B/slave -h

# Without kernel headers make builds the programs (already built here)
# and says in one line how to get the module.
check_exit "make without kernel headers exits 0" 0 make -s KDIR=
check_output "make without kernel headers says how to get the module" \
	"^make: programs built in build/; no kernel headers, so no module: install linux-headers-.* \(or run scripts/deps\), then run make module\$" \
	make -s KDIR=

# master: usage errors (2)
check_exit "master without arguments" 2 $B/master
check_output "master without arguments: says N is missing" "missing N" $B/master
check_exit "master wrong N" 2 $B/master 2 "$T/in" mmap
check_output "master wrong N: names N and the count" \
	"N is 2 but 1 files were given" $B/master 2 "$T/in" mmap
check_exit "master without the method" 2 $B/master 1 "$T/in"
check_output "master without the method: names it" \
	"^master: missing the method \(fcntl or mmap\) after the 1 file\$" \
	$B/master 1 "$T/in"
check_output "master with an argument too many: names it" \
	"^master: unexpected argument 'x' after the method 'mmap'\$" \
	$B/master 1 "$T/in" mmap x
check_output "master N without files or method" \
	"^master: N is 3 but only 1 file follows it, and no method \(fcntl or mmap\)\$" \
	$B/master 3 "$T/in"
check_exit "master N not a number" 2 $B/master two "$T/in" mmap
check_output "master N not a number: says so" "bad file count N 'two'" \
	$B/master two "$T/in" mmap
check_exit "master bad method" 2 $B/master 1 "$T/in" read
check_output "master bad method: names it" \
	"bad method 'read': expected fcntl or mmap" $B/master 1 "$T/in" read
check_exit "master unknown option" 2 $B/master 1 "$T/in" mmap --bogus
check_exit "master bad buffer size" 2 $B/master 1 "$T/in" fcntl -b 12Q
check_exit "master rejects slave options" 2 $B/master 1 "$T/in" fcntl --wait 5

# master: failures before any connection (1)
check_exit "master missing input file" 1 $B/master 1 "$T/missing" fcntl --device "$nodev"
check_output "master missing input file: names it and why" \
	"cannot open input file $T/missing: No such file or directory" \
	$B/master 1 "$T/missing" fcntl --device "$nodev"
check_exit "master input is a directory" 1 $B/master 1 "$T" mmap --device "$nodev"
check_output "master input is a directory: says so" "is a directory, not a regular file" \
	$B/master 1 "$T" mmap --device "$nodev"
check_exit "master without the device" 1 $B/master 1 "$T/in" mmap --device "$nodev"
check_output "master without the device: is the module loaded?" \
	"cannot open $nodev \(is the syncdev module loaded\?\): No such file or directory" \
	$B/master 1 "$T/in" mmap --device "$nodev"
if [ ! -e /dev/master_device ]; then
	check_output "master default device missing: is the module loaded?" \
		"cannot open /dev/master_device \(is the syncdev module loaded\?\)" \
		$B/master 1 "$T/in" fcntl
	check_output "slave default device missing: is the module loaded?" \
		"cannot open /dev/slave_device \(is the syncdev module loaded\?\)" \
		$B/slave 1 "$T/out" fcntl 127.0.0.1
fi

# slave: usage errors (2)
check_exit "slave without the address" 2 $B/slave 1 "$T/out" mmap
check_output "slave without the address: names it" \
	"^slave: missing the master's IP address after the method 'mmap'\$" \
	$B/slave 1 "$T/out" mmap
check_output "slave without the method and address: names both" \
	"^slave: missing the method \(fcntl or mmap\) and the master's IP address after the 1 file\$" \
	$B/slave 1 "$T/out"
check_exit "slave wrong N" 2 $B/slave 3 "$T/o1" "$T/o2" fcntl 127.0.0.1
check_output "slave wrong N: names N and the count" \
	"N is 3 but 2 files were given" $B/slave 3 "$T/o1" "$T/o2" fcntl 127.0.0.1
check_exit "slave bad method" 2 $B/slave 1 "$T/out" sendfile 127.0.0.1
check_output "slave bad method: names it" "bad method 'sendfile'" \
	$B/slave 1 "$T/out" sendfile 127.0.0.1
for ip in localhost 127.0.0 127.0.0.1:0 127.0.0.1:70000 ::1 127.0.0.1:x; do
	check_exit "slave bad address $ip" 2 $B/slave 1 "$T/out" fcntl "$ip"
done
check_output "slave bad address: names it" \
	"bad address 'localhost': 'localhost' is not an IPv4 address" \
	$B/slave 1 "$T/out" fcntl localhost
check_output "slave bad port: names it" \
	"bad address '127.0.0.1:70000': port '70000' is not a number 1..65535" \
	$B/slave 1 "$T/out" fcntl 127.0.0.1:70000
check_exit "slave bad timeout" 2 $B/slave 1 "$T/out" fcntl 127.0.0.1 -t 0
check_exit "slave bad progress timeout" 2 $B/slave 1 "$T/out" fcntl 127.0.0.1 --progress-timeout 0
check_exit "master bad progress timeout" 2 $B/master 1 "$T/in" fcntl --progress-timeout x

# The same output twice (by any name) is a usage error.
check_exit "slave same output twice" 2 \
	$B/slave 2 "$T/o" "$T/o" fcntl 127.0.0.1 --device "$nodev"
check_output "slave same output twice: names both" \
	"outputs 1 \($T/o\) and 2 \($T/o\) are the same file" \
	$B/slave 2 "$T/o" "$T/o" fcntl 127.0.0.1 --device "$nodev"
check_exit "slave same output as x and dir/./x" 2 \
	$B/slave 2 "$T/o" "$T/./o" fcntl 127.0.0.1 --device "$nodev"
: >"$T/real"
ln -s real "$T/link"
check_exit "slave same output as a file and a link to it" 2 \
	$B/slave 3 "$T/o" "$T/link" "$T/real" fcntl 127.0.0.1 --device "$nodev"
rm -f "$T/real" "$T/link"

# Regular files only; nothing else is replaced.
mkfifo "$T/fifo"
check_exit "slave output /dev/null refused" 1 \
	$B/slave 1 /dev/null fcntl 127.0.0.1 --device "$nodev"
check_output "slave output /dev/null: says why" \
	"output /dev/null is a character device \(the slave writes regular files only\)" \
	$B/slave 1 /dev/null fcntl 127.0.0.1 --device "$nodev"
check "/dev/null is still a device" test -c /dev/null
check_exit "slave output FIFO refused" 1 \
	$B/slave 1 "$T/fifo" mmap 127.0.0.1 --device "$nodev"
check "the FIFO is still a FIFO" test -p "$T/fifo"
ln -s /dev/null "$T/devlink"
check_exit "slave output link to a device refused" 1 \
	$B/slave 1 "$T/devlink" mmap 127.0.0.1 --device "$nodev"
check "the link is still a link" test -L "$T/devlink"
rm -f "$T/devlink"

# Non-regular inputs are refused before anything blocks (a FIFO
# without a writer would block open() forever).
check_exit "master input FIFO refused at once" 1 \
	timeout 20 $B/master 1 "$T/fifo" fcntl --device "$nodev"
check_output "master input FIFO: says why" "input file $T/fifo is a FIFO, not a regular file" \
	timeout 20 $B/master 1 "$T/fifo" mmap --device "$nodev"
check_exit "master input device refused" 1 $B/master 1 /dev/zero fcntl --device "$nodev"
check_exit "tcpcopy send FIFO refused at once" 1 timeout 20 $B/tcpcopy send "$T/fifo"
check_exit "tcpcopy recv into /dev/null refused" 1 $B/tcpcopy recv 127.0.0.1:1 /dev/null
rm -f "$T/fifo"

# slave: failures before any connection (1), leaving nothing behind
check_exit "slave output directory missing" 1 \
	$B/slave 1 "$T/nodir/out" fcntl 127.0.0.1 --device "$nodev"
check_output "slave output directory missing: names it" \
	"cannot create output file $T/nodir/out in directory $T/nodir" \
	$B/slave 1 "$T/nodir/out" fcntl 127.0.0.1 --device "$nodev"
check_exit "slave output is a directory" 1 \
	$B/slave 1 "$T" fcntl 127.0.0.1 --device "$nodev"
check_exit "slave without the device" 1 \
	$B/slave 1 "$T/out" mmap 127.0.0.1 --device "$T/no/slave_device"
check_output "slave without the device: is the module loaded?" \
	"is the syncdev module loaded\?" \
	$B/slave 1 "$T/out" mmap 127.0.0.1 --device "$T/no/slave_device"
if [ -z "$(ls -A "$T" | grep -v '^in$')" ]; then
	pass "failed runs leave no files"
else
	fail "failed runs leave no files" "found: $(ls -A "$T")"
fi

# tcpcopy
check_exit "tcpcopy without a command" 2 $B/tcpcopy
check_exit "tcpcopy bad command" 2 $B/tcpcopy copy "$T/in"
check_exit "tcpcopy send without a file" 2 $B/tcpcopy send
check_exit "tcpcopy send missing file" 1 $B/tcpcopy send "$T/missing"
check_exit "tcpcopy recv bad address" 2 $B/tcpcopy recv 1.2.3 "$T/out"
check_exit "tcpcopy bad port" 2 $B/tcpcopy send "$T/in" -p 0

# One parser for the transfer options: an option's help block is the same
# text in every program that takes it, and one a program does not take is
# refused by name, never read as another option.
# block PROG OPTION: OPTION's lines in PROG --help (to the next option).
block() {
	"$B/$1" --help | awk -v o="$2" '
		/^ *(-[a-z], )?--[a-z]/ { on = index($0, o " ") || $0 ~ ("  " o "$") }
		/^$/ { on = 0 }
		on'
}
for o in "-b, --buffer" "--progress-timeout" "--key"; do
	check_equal "master and tcpcopy --help: $o alike" \
		"$(block master "$o")" "$(block tcpcopy "$o")"
	check_equal "master and slave --help: $o alike" \
		"$(block master "$o")" "$(block slave "$o")"
done
check_equal "slave and tcpcopy --help: -w, --wait alike but the default" \
	"$(block slave "-w, --wait" | sed 's/default [0-9]*/default N/')" \
	"$(block tcpcopy "-w, --wait" | sed 's/default [0-9]*/default N/')"
check_output "master --help: -b's block read" "at most 1G" block master "-b, --buffer"
check_output "tcpcopy --help: --key's block read" "secret in FILE" block tcpcopy "--key"
check_output "tcpcopy --help: --progress-timeout's block read" "nothing moves" \
	block tcpcopy "--progress-timeout"
for w in "-t 5" "--timeout 5" "-v" "--peer 1.2.3.4" "--no-sync" "--copy"; do
	# shellcheck disable=SC2086 # $w is an option and its value
	check_exit "tcpcopy $w: a usage error" 2 $B/tcpcopy send "$T/in" $w
done
check_output "tcpcopy -t: refused as the slave's --timeout, not taken as --tar" \
	"-t/--timeout is not an option of tcpcopy" $B/tcpcopy send "$T/in" -t 5
check_output "master mmap --copy: refused, fcntl only" \
	"--copy is for the fcntl method" $B/master 1 "$T/in" mmap --copy
check_output "master --wait: refused by name" \
	"-w/--wait is not an option of master" $B/master 1 "$T/in" fcntl --wait 5

finish
