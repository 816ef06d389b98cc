#!/bin/sh
# vm-cost: 3
# The guest harness itself: the module is loaded and its devices exist, the
# guest has the tools and the loopback network the other tests rely on.
. "$SYNCDEV_ROOT/tests/lib.sh"

check "module loaded" grep -q '^syncdev ' /proc/modules
for dev in /dev/master_device /dev/slave_device; do
	if [ -c "$dev" ]; then pass "$dev exists"; else fail "$dev exists" "no character device $dev"; fi
	check_equal "$dev mode" "$(stat -c %a "$dev" 2>&1)" 600
done
check "programs on PATH" command -v gendata
check "cwd is an empty tmpfs directory" sh -c 'test -z "$(ls -A)" && stat -f -c %T . | grep -qx tmpfs'
check "loopback up" ping -c 1 -W 2 127.0.0.1
finish
