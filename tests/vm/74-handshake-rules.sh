# shellcheck shell=sh
# vm-timeout: 300
# vm-cost: 50
# Peers that are slow on purpose and local users who plant files, against
# master and slave on the device: a hello or a key proof dribbled a byte
# at a time is dropped at the handshake's one deadline, which the kernel
# holds and counts (the real slave after it gets the file), a keyed slave
# gives up on a dribbling master with exit 4, and so does tcpcopy
# --device --key on either side; a size of 2^64-1 after a small file is refused at its
# header; a huge announced size in mmap mode is not reserved ahead of the
# data; the temporary file has its final owner and mode before any data;
# and the kernel's fs.protected_regular and fs.protected_symlinks are
# applied at each level, to root's slave and to another user's.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

BP_PORT=2401
gen in 100000 3
head -c 32 /dev/urandom >key
chmod 600 key
# One deadline of 1.5 s; a dribble of 100 ms a byte takes 3.6 s or more.
HS="--handshake-timeout 1500"

# cut_by_kernel NAME MARK ROLE PORT: since MARK (klog_mark) the kernel
# shut down one connection of a ROLE session from 127.0.0.1:PORT (any
# port if empty) at its 1.5 s deadline, its first stranger: the count
# SYNCDEV_IOC_INFO gives (syncdev_info.strangers) is 1.
cut_by_kernel() {
	check_equal "$1: the kernel cut it at the deadline and counted it" \
		"$(klog_since "$2" "syncdev: $3#[0-9]+: no handshake from 127\.0\.0\.1:${4:-[0-9]+} in 1500 ms: connection shut down \(1 so far\)")" 1
}

# A master with a slow stranger first in line, then the real slave.
# slow_first NAME CASE PATTERN [OPTION...]: the options go to master,
# badpeer and slave alike (--key).
slow_first() {
	name=$1 kind=$2 pat=$3
	shift 3
	mark=$(klog_mark)
	# shellcheck disable=SC2086 # $HS is options
	master 1 in fcntl $HS "$@" >master.log 2>&1 &
	mpid=$!
	badpeer slave --drip 400 --wait "$WAIT_MS" "$@" 127.0.0.1 "$kind" \
		>peer.log 2>&1 &
	ppid=$!
	check "$name: the master drops it at the deadline" wait_log master.log "$pat"
	check "$name: the real slave after it: exit 0" \
		slave 1 out fcntl 127.0.0.1 -w "$WAIT_MS" "$@"
	wait_gone $mpid 60
	check_equal "$name: master exit 0" $? 0
	check_same "$name: identical" in out
	cut_by_kernel "$name" "$mark" master
	rm -f out
	kill $ppid 2>/dev/null
	wait $ppid 2>/dev/null
}
slow_first "a hello dribbled" slowgreet \
	"dropped a peer that did not greet as a slave \(1 so far\): no hello within the handshake's 1500 ms"
slow_first "a key proof dribbled" slowproof \
	"dropped a peer that failed the key handshake \(1 so far\): no complete answer within the handshake's 1500 ms" \
	--key key

# A keyed slave and a master that dribbles its key hello.
mark=$(klog_mark)
badpeer master --port $BP_PORT --key key --drip 100 slowproof in >peer.log 2>&1 &
pid=$!
# shellcheck disable=SC2086 # $HS is options
slave 1 out fcntl 127.0.0.1:$BP_PORT -w "$WAIT_MS" --key key $HS >slave.log 2>&1
check_equal "keyed slave vs a dribbled key hello: exit 4" $? 4
check_output "keyed slave vs a dribbled key hello: says why" \
	"key handshake with the master failed: no complete answer within the handshake's 1500 ms" \
	cat slave.log
no_output "keyed slave vs a dribbled key hello"
cut_by_kernel "keyed slave vs a dribbled key hello" "$mark" slave $BP_PORT
kill $pid 2>/dev/null
wait $pid 2>/dev/null

# tcpcopy --device --key: no greeting, the key proofs are the handshake,
# under the same deadline ($SYNCDEV_HANDSHAKE_MS) held by the kernel.
export SYNCDEV_HANDSHAKE_MS=1500
what="tcpcopy send --device --key vs a dribbled key proof"
mark=$(klog_mark)
tcpcopy send in --device --key key >send.log 2>&1 &
spid=$!
badpeer slave --tcpcopy --key key --drip 100 --wait "$WAIT_MS" 127.0.0.1 \
	slowproof >peer.log 2>&1 &
ppid=$!
wait_gone $spid 60
check_equal "$what: exit 4" $? 4
check_output "$what: says why" \
	"key handshake with the receiver failed: no complete answer within the handshake's 1500 ms" \
	cat send.log
cut_by_kernel "$what" "$mark" master
kill $ppid 2>/dev/null
wait $ppid 2>/dev/null

what="tcpcopy recv --device --key vs a dribbled key hello"
mark=$(klog_mark)
badpeer master --tcpcopy --port $BP_PORT --key key --drip 100 slowproof in \
	>peer.log 2>&1 &
pid=$!
tcpcopy recv 127.0.0.1:$BP_PORT out --device -w "$WAIT_MS" --key key \
	>recv.log 2>&1
check_equal "$what: exit 4" $? 4
check_output "$what: says why" \
	"key handshake with the master failed: no complete answer within the handshake's 1500 ms" \
	cat recv.log
no_output "$what"
cut_by_kernel "$what" "$mark" slave $BP_PORT
kill $pid 2>/dev/null
wait $pid 2>/dev/null
unset SYNCDEV_HANDSHAKE_MS

# 2^64-1 bytes announced for file 2, after a small file 1.
for m in fcntl mmap; do
	badpeer master --port $BP_PORT --stall 60 huge64 in in >peer.log 2>&1 &
	pid=$!
	slave 2 out1 out2 $m 127.0.0.1:$BP_PORT -w "$WAIT_MS" >slave.log 2>&1
	check_equal "slave ($m) vs 2^64-1 bytes after a small file: exit 1" $? 1
	check_output "slave ($m): refused at the header" \
		"no space for out2: it has 18446744073709551615 bytes, more than any file can hold" \
		cat slave.log
	check_same "slave ($m): file 1 in place" in out1
	no_output "slave ($m) vs 2^64-1 bytes, file 2" out2
	rm -f out1
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
done

# temp_holds BYTES: out's temporary file has BYTES or more allocated
# (blocks) or written (size, with "size").
temp_holds() {
	set -- "$1" "${2:-b}" "$(out_temp "$spid" out)"
	[ -n "$3" ] || return 1
	if [ "$2" = size ]; then
		[ "$(stat -L -c %s "$3")" -ge "$1" ]
	else
		[ "$(($(stat -L -c %b "$3") * 512))" -ge "$1" ]
	fi
}

# A huge size in mmap mode, 16 MiB of it sent (the slave takes it in 1 MiB
# RECVs, the last waits for more), then silence: the space taken follows
# the data (the room check passes: half
# the free space).  userfaultfd refused, so that the slave reserves the
# space on the guest's tmpfs as on a disk instead of filling its pages as
# they arrive.
free=$(df -k . | awk 'NR == 2 { print $4 }')
size=$((free * 1024 / 2))
badpeer master --port $BP_PORT --stall 300 --size $size hugestop in >peer.log 2>&1 &
pid=$!
# A kernel without seccomp cannot refuse the call; one without
# userfaultfd (the debug kernel has neither) needs no refusing.
no_uffd=refuse
refuse userfaultfd true 2>/dev/null || no_uffd=""
${no_uffd:+refuse userfaultfd} slave 1 out mmap 127.0.0.1:$BP_PORT -w "$WAIT_MS" \
	>slave.log 2>&1 &
spid=$!
# 16 MiB through the device: a while under a debug kernel beside other
# guests.
check "hugestop: the temporary file holds 15 MiB of the 16" \
	poll_until 120 temp_holds 15728640
set -- "$(out_temp "$spid" out)"
used=$(($(stat -L -c %b "$1") * 512))
[ "$used" -le $((25 * 1048576)) ] &&
	pass "hugestop: $size bytes announced, $used taken (the data and the window)" ||
	fail "hugestop: the space follows the data" "$used bytes taken for 16 MiB received"
kill $pid $spid 2>/dev/null
wait $pid $spid 2>/dev/null
rm -f .out.syncdev-*

# The temporary file while data arrives: a master that stalls after half.
badpeer master --port $BP_PORT --stall 60 stall in >peer.log 2>&1 &
pid=$!
printf old >out
chown 1234:2345 out
chmod 0640 out
slave 1 out fcntl 127.0.0.1:$BP_PORT -w "$WAIT_MS" >slave.log 2>&1 &
spid=$!
check "stalled transfer: the temporary file holds half" \
	poll_until 30 temp_holds 50000 size
set -- "$(out_temp "$spid" out)"
check_equal "replacing 1234:2345's 0640 file: the temporary is theirs and 0640 while data arrives" \
	"$(stat -L -c '%u %g %a' "$1")" "1234 2345 640"
kill $pid $spid 2>/dev/null
wait $pid $spid 2>/dev/null
rm -f out .out.syncdev-*

# sticky_case NAME DIRMODE OWNER LEVEL_FILE LEVEL WANT [RUNNER]: a file
# (or, for protected_symlinks, a link to a file of the runner's) planted
# by uid OWNER in a sticky directory of mode DIRMODE; the slave (as
# RUNNER: root, or "asuser 4321 4321") must exit WANT.
sticky_case() {
	name=$1 dmode=$2 owner=$3 sysctl=$4 level=$5 want=$6
	runner=${7:-}
	echo "$level" >/proc/sys/fs/"$sysctl"
	d=$(mktemp -d /tmp/sticky.XXXXXX)
	chown 0:4321 "$d"
	chmod "$dmode" "$d"
	printf precious >"$d/target"
	[ -z "$runner" ] || chown 4321:4321 "$d/target"
	if [ "$sysctl" = protected_symlinks ]; then
		asuser "$owner" "$owner" ln -s "$d/target" "$d/out"
	else
		printf planted >"$d/out"
		chown "$owner:$owner" "$d/out"
	fi
	master 1 in fcntl >master.log 2>&1 &
	mpid=$!
	# shellcheck disable=SC2086 # $runner is a command and its arguments
	$runner slave 1 "$d/out" fcntl 127.0.0.1 -w "$WAIT_MS" >slave.log 2>&1
	check_equal "$name: $sysctl=$level: exit $want" $? "$want"
	if [ "$want" = 1 ]; then
		check_output "$name: $sysctl=$level: says why" "fs\.$sysctl" cat slave.log
		kill $mpid 2>/dev/null
	fi
	wait $mpid 2>/dev/null
	rm -rf "$d"
}
chmod 0666 /dev/master_device /dev/slave_device
for level in 0 1 2; do
	want=1
	[ $level = 0 ] && want=0
	sticky_case "root, uid 4322's file in a 1777 directory" 1777 4322 protected_regular $level $want
done
# At level 0 another user's rename in a sticky directory fails (EPERM);
# at 1 and 2 the slave refuses first, saying why.
for level in 1 2; do
	sticky_case "uid 4321, uid 4322's file in a 1777 directory" 1777 4322 protected_regular $level 1 "asuser 4321 4321"
done
sticky_case "root, uid 4322's file in a 1775 directory" 1775 4322 protected_regular 1 0
sticky_case "root, uid 4322's file in a 1775 directory" 1775 4322 protected_regular 2 1
sticky_case "root, root's own file in a 1777 directory" 1777 0 protected_regular 2 0
sticky_case "root, uid 4322's link in a 1777 directory" 1777 4322 protected_symlinks 0 0
sticky_case "root, uid 4322's link in a 1777 directory" 1777 4322 protected_symlinks 1 1
sticky_case "uid 4321, uid 4322's link in a 1777 directory" 1777 4322 protected_symlinks 1 1 "asuser 4321 4321"
sticky_case "root, root's own link in a 1777 directory" 1777 0 protected_symlinks 1 0
echo 0 >/proc/sys/fs/protected_regular
echo 0 >/proc/sys/fs/protected_symlinks
finish
