# shellcheck shell=sh
# vm-timeout: 240
# vm-cost: 24
# What the slave does to the file system and what it sends: a replaced
# file keeps its owner, group and mode; a symbolic link planted by another
# user in a sticky world-writable directory is refused as the kernel
# would refuse to follow it (fs.protected_symlinks), its target untouched;
# a file larger than the free space is refused before anything is
# allocated, on both sides; a source file rewritten while the master
# sends it fails both sides.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

gen in 200000 3

# transfer IN OUT [SLAVE_OPTION...]: master and slave; slave's exit status.
transfer() {
	_in=$1 _out=$2
	shift 2
	master 1 "$_in" fcntl >master.log 2>&1 &
	mpid=$!
	slave 1 "$_out" fcntl 127.0.0.1 -w $WAIT_MS "$@" >slave.log 2>&1
	_rc=$?
	wait $mpid
	mrc=$?
	return $_rc
}

# Owner, group and mode of a replaced file are kept.
printf old >out
chown 1234:2345 out
chmod 0600 out
transfer in out
check_equal "replace a 0600 file of 1234:2345: slave exit 0" $? 0
check_equal "master: exit 0" "$mrc" 0
check_same "replaced: identical" in out
check_output "replaced: still 0600, owner 1234, group 2345" \
	'^-rw------- +1 +1234 +2345 ' ls -ln out
chmod 0640 out
check "replace a 0640 file: exit 0" transfer in out
check_output "replaced: still 0640" '^-rw-r----- ' ls -ln out
check "--no-sync: exit 0" transfer in out --no-sync
check_same "--no-sync: identical" in out
rm -f out

# A link planted by uid 4321 in a sticky world-writable directory, to a
# file of root's: root's slave refuses it and writes nothing, as the
# kernel does at fs.protected_symlinks=1 (tests/vm/74-handshake-rules.sh
# tries each level).
echo 1 >/proc/sys/fs/protected_symlinks
sticky=$(mktemp -d /tmp/sticky.XXXXXX)
chmod 1777 "$sticky"
printf precious >victim
asuser 4321 4321 ln -s "$PWD/victim" "$sticky/out"
slave 1 "$sticky/out" fcntl 127.0.0.1 >slave.log 2>&1
check_equal "slave to another user's link in a sticky directory: exit 1" $? 1
check_output "says the kernel would refuse to follow it" \
	'symbolic link of another user.*fs.protected_symlinks' cat slave.log
check_equal "the link's target is untouched" "$(cat victim)" precious
check_output "the link is still there" '^l' ls -ln "$sticky/out"
# root's own link in the same directory is followed (the file it leads
# to is replaced, the link stays).
rm -f "$sticky/out"
ln -s "$PWD/victim" "$sticky/out"
check "slave to root's own link in a sticky directory: exit 0" \
	transfer in "$sticky/out"
check_same "the file it leads to is the new one" in victim
rm -rf "$sticky" victim

# More than the free space: "no space" on both sides, nothing written.
mkdir -p small
mount -t tmpfs -o size=1m tmpfs small
gen big 3000000 4
transfer big small/out
check_equal "a 3 MB file to a 1 MiB file system: slave exit 1" $? 1
check_output "slave: says no space" 'no space for small/out' cat slave.log
check_equal "master: exit 1" "$mrc" 1
check_output "master: gives the slave's no space reason" \
	'[Nn]o space' cat master.log
check_equal "nothing left in the file system" "$(ls -A small)" ""
umount small
rm -f big

# A source file rewritten in place while the master waits to send it
# (it is opened first): both sides fail, nothing written.
master 1 in fcntl >master.log 2>&1 &
mpid=$!
wait_syscall $mpid 16
sleep 0.1
printf XXXX | dd of=in bs=1 seek=1000 conv=notrunc 2>/dev/null
slave 1 out fcntl 127.0.0.1 -w $WAIT_MS >slave.log 2>&1
check_equal "source rewritten during the send: slave exit 1" $? 1
wait $mpid
check_equal "source rewritten during the send: master exit 1" $? 1
check_output "master: says it changed while being sent" \
	'in changed while being sent' cat master.log
no_output "source rewritten during the send"
finish
