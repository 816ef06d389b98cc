# shellcheck shell=sh
# vm-timeout: 300
# vm-cost: 20
# A master that overwrites its mmapped buffer the moment each SEND
# returns never changes bytes that SEND sent: 100 SENDs of 1 MiB at the
# same offset, each overwritten at once, every byte checked by the slave
# (reusecheck); then a 4 KiB chunk, where one SEND is one segment.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

tool_part reusecheck 100 1048576
wait_no_listener >/dev/null
tool_part reusecheck 300 4096
wait_no_listener >/dev/null
