#!/bin/sh
# osbench report with the two-guest parts: the master serves its disk
# over NFS and runs "osbench net --serve --count 1"; the slave runs the
# whole report in smoke mode with --pair and --remote on its own disk.
# Under a debug kernel, one sample per figure (bench_reps) and only the
# section that reaches the peer's "osbench net --serve" (--only net): the
# micro-benchmarks and I/O experiments are userspace work that such a
# kernel checks no better, and the remote file access and the device
# transfers are what 30-nfs.sh and tests/vm/62-tcpcopy-device.sh run
# there; all run whole under the other kernels.
# Checked: exit 0, the sections with the peer's network table, the local
# vs remote side-by-side table, the device transfers (the module is
# loaded), the two-guest summary rows measured, both documents and the
# methodology written.  No timing is asserted.
# vm-timeout: 900
# vm-cost: 35
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

G=$SYNCDEV_ROOT/scripts/guest
meet() { peer_meet 2397 "$1" 600; }

master() {
	check "disk and NFS export" sh -c "'$G/disk' mount /srv && '$G/nfs' serve /srv"
	osbench net --serve --count 1 2>serve.err &
	pid=$!
	meet report-up
	meet report-done
	wait $pid
	check_equal "net --serve ends after the report's run" "$?" 0
	check "nfs stop" "$G/nfs" stop
	check "umount /srv" "$G/disk" umount /srv
}

slave() {
	check "local disk" "$G/disk" mount /mnt/disk
	meet report-up
	check "nfs mount" "$G/nfs" mount "$SYNCDEV_PEER" /mnt/nfs 120
	only=
	slow_kernel && only="--only net"
	# shellcheck disable=SC2046,SC2086 # options or none
	osbench report --smoke $(bench_reps -) $only --pair \
		--remote /mnt/nfs --dir /mnt/disk --out rep >report.log 2>&1
	check_equal "report --pair --remote exits 0" "$?" 0
	grep -v '^report: \(running\|[0-9]\)' report.log | tail -n 5 | sed 's/^/    /'
	md=rep/report.md
	written="report.md report.html methodology.md net-peer.csv"
	slow_kernel || written="$written transfer.csv"
	for f in $written; do
		check "report wrote $f" test -s "rep/$f"
	done
	check_output "network: the peer's table" \
		"^\| $SYNCDEV_PEER \| tcp \| round trip \|" cat "$md"
	check_output "summary: the peer's TCP round trip measured" \
		"^\| TCP round trip, to the peer \| [^|]* \| [^|]* \| [^|]* \| [0-9][^|]* \| .*\| builds on [^|]*\|" cat "$md"
	if ! slow_kernel; then
		check_output "file access: local and remote side by side" \
			"^\| op \| chunk_bytes \| /mnt/disk \(ext2\) MiB/s \| /mnt/nfs \(nfs4\) MiB/s \| local / remote \|$" \
			cat "$md"
		check_output "summary: remote O_SYNC writes measured" \
			"^\| O_SYNC write 4 KiB, remote \| [^|]* \| [^|]* \| [0-9]" cat "$md"
		check_output "device transfers: a table, not a reason" \
			"^## Device transfers" cat "$md"
		check_equal "no transfer.skipped with the module loaded" \
			"$(ls rep/transfer.skipped 2>/dev/null)" ""
	fi
	check "nfs umount" "$G/nfs" umount /mnt/nfs
	check "umount the local disk" "$G/disk" umount /mnt/disk
	meet report-done
}

case $SYNCDEV_ROLE in
master) master ;;
slave) slave ;;
*) fail "role" "SYNCDEV_ROLE is '$SYNCDEV_ROLE'" ;;
esac
finish
