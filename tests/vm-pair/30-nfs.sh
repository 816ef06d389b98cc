#!/bin/sh
# A remote disk between the guests: the master formats its virtio-blk
# disk (ext2) and serves it over NFS v4 (kernel nfsd); the slave mounts
# it, reads a file the master wrote and writes one the master reads back
# (both compared with their own gendata copy), runs the fileaccess series
# on its own disk and on the NFS mount side by side with the scratch
# files' bytes checked, and unmounts.  No timing is asserted.
# vm-timeout: 400
# vm-cost: 77
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

G=$SYNCDEV_ROOT/scripts/guest
# 3 samples per figure, 1 under a debug kernel (bench_reps).
ARGS="--smoke $(bench_reps 3) --max-chunk 4K --file-size 64K"
meet() { peer_meet 2393 "$1"; }

gendata 300001 5 >want-m2s
gendata 200003 6 >want-s2m

master() {
	check "disk: ext2 on /dev/vda" "$G/disk" mount /srv
	check_output "/srv is ext2" "^/dev/vda /srv ext2 " cat /proc/mounts
	cp want-m2s /srv/m2s
	check "nfs serve /srv" "$G/nfs" serve /srv
	meet nfs-up
	meet nfs-done
	check_same "the file the slave wrote over NFS" /srv/s2m want-s2m
	check_equal "no scratch file left on the export" \
		"$(ls -a /srv | grep -c osbench)" 0
	check "nfs stop" "$G/nfs" stop
	check_equal "no nfsd threads after stop" "$(cat /proc/fs/nfsd/threads)" 0
	check "umount /srv" "$G/disk" umount /srv
}

slave() {
	check "disk: ext2 on /dev/vda" "$G/disk" mount /mnt/disk
	meet nfs-up
	check "nfs mount" "$G/nfs" mount "$SYNCDEV_PEER" /mnt/nfs 120
	check_output "/mnt/nfs is NFS 4.2 from the master" \
		"^$SYNCDEV_PEER:/ /mnt/nfs nfs4 .*vers=4\.2" cat /proc/mounts
	check_same "the file the master wrote, read over NFS" /mnt/nfs/m2s want-m2s
	cp want-s2m /mnt/nfs/s2m
	# shellcheck disable=SC2086
	osbench fileaccess $ARGS --csv --remote /mnt/nfs /mnt/disk >fa.csv 2>fa.err
	check_equal "fileaccess --remote exits 0" "$?" 0
	[ -s fa.err ] && sed 's/^/    /' fa.err
	rows() { grep -v '^#' fa.csv | sed 1d | awk -F, "$1" | wc -l; }
	check_equal "12 rows on the local ext2 disk" \
		"$(rows '$1 == "/mnt/disk" && $2 == "ext2"')" 12
	check_equal "12 rows on the NFS mount" \
		"$(rows '$1 == "/mnt/nfs" && $2 == "nfs4"')" 12
	check_equal "every figure positive" \
		"$(rows '$5 + 0 > 0 && $7 + 0 > 0 && $9 + 0 > 0 && $10 + 0 > 0')" 24
	check_output "local bytes checked" \
		"^# checked /mnt/disk: 65536 bytes read back cold" cat fa.err
	check_output "remote bytes checked" \
		"^# checked /mnt/nfs: 65536 bytes read back cold" cat fa.err
	check_output "a note says the remote is NFS" \
		"^# /mnt/nfs: nfs4: a network file system" cat fa.err
	# The side-by-side table in text mode, with the ratio column.
	# shellcheck disable=SC2086
	osbench fileaccess $ARGS --max-chunk 256 --remote /mnt/nfs /mnt/disk >fa.txt 2>&1
	check_output "side by side: a column per target and the ratio" \
		"op +chunk_bytes +/mnt/disk \(ext2\) \(MiB/s\) +/mnt/nfs \(nfs4\) \(MiB/s\) +local/remote" \
		cat fa.txt
	sync
	check "nfs umount" "$G/nfs" umount /mnt/nfs
	check_equal "/mnt/nfs no longer mounted" \
		"$(grep -c ' /mnt/nfs ' /proc/mounts)" 0
	check "umount the local disk" "$G/disk" umount /mnt/disk
	meet nfs-done
}

case $SYNCDEV_ROLE in
master) master ;;
slave) slave ;;
*) fail "role" "SYNCDEV_ROLE is '$SYNCDEV_ROLE'" ;;
esac
finish
