# shellcheck shell=sh
# vm-timeout: 300
# vm-cost: 20
# sendfile() and splice() into /dev/master_device (its splice_write): the
# sizes around a page, one device buffer and 3 MiB + 1 by both, every
# byte checked on the slave and a marker written after them; the source
# rewritten or truncated after sendfile() returned (each byte the old one,
# the new one or zero, in place); a long sendfile() stopped by a signal
# and resumed; the slave closing mid-stream (ECONNRESET) (splicecheck).
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

tool_part splicecheck
wait_no_listener >/dev/null
