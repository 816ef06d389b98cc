#!/bin/sh
# Harness self-test (scripts/vm/vm-test selftest): a check that fails.
. "$SYNCDEV_ROOT/tests/lib.sh"
fail "deliberate failure" "as planned"
finish
