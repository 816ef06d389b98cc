#!/bin/sh
# The slave's mmap-mode output on tmpfs, both ways: with userfaultfd
# (root may always use it, so as root the pages must be filled by
# UFFDIO_COPY) and with userfaultfd refused, as a container's seccomp
# profile refuses it (the mapping faults, as before).  The same files,
# byte for byte, either way (tests/unit/test_pagefill.c prints the
# checks; here each run must also end well: a SIGBUS that killed it, or a
# hang, is a failure).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
B=build

expect=""
[ "$(id -u)" = 0 ] && expect=1
SYNCDEV_EXPECT_FILL=$expect timeout 60 $B/tests/test_pagefill
check_equal "test_pagefill with userfaultfd ends well" "$?" 0
SYNCDEV_EXPECT_FILL=0 timeout 60 $B/tests/tools/refuse userfaultfd \
	$B/tests/test_pagefill
check_equal "test_pagefill with userfaultfd refused ends well" "$?" 0
finish
