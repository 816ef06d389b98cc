#!/bin/sh
# Harness self-test: a script that leaves a process holding the device.
exec 3</dev/master_device
sleep 1000 >/dev/null 2>&1 &
