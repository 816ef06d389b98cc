# shellcheck shell=sh
# vm-timeout: 300
# vm-cost: 80
# Keyed transfers (--key): a stranger that connects first and would
# answer "ok" is dropped and the real slave gets the files; a fake master
# (badpeer) cannot feed a keyed slave; a wrong key fails either way; a
# slave without the key is dropped.  --peer sets the module's filter.
. "$SYNCDEV_ROOT/tests/lib.sh"
. "$SYNCDEV_ROOT/tests/lib-xfer.sh"

BP_PORT=2400
gen in 300000 7
(umask 077 && head -c 32 /dev/urandom >k1 && head -c 32 /dev/urandom >k2)


# Without --key (what the mode does not protect against): a fake slave
# that connects first and answers "ok" takes the files and the master
# exits 0; the real slave, connecting after, finds no master.
master 1 in fcntl >master.log 2>&1 &
mpid=$!
badpeer slave --wait $WAIT_MS 127.0.0.1 ok >peer.log 2>&1
wait $mpid
check_equal "no key: the master takes the fake slave's ok, exit 0" $? 0
wait_no_listener >/dev/null
slave 1 out fcntl 127.0.0.1 >slave.log 2>&1
check_equal "no key: the real slave after it finds no master, exit 1" $? 1
no_output "no key: the real slave"

# A fake slave connects first and would answer "ok": a keyed master drops
# it and waits on; the real slave, with the key, gets the files.
master 1 in fcntl --key k1 >master.log 2>&1 &
mpid=$!
badpeer slave --wait $WAIT_MS 127.0.0.1 ok >peer.log 2>&1
check "keyed master: the fake slave is dropped, logged" \
	wait_log master.log 'dropped a peer that failed the key handshake \(1 so far\)'
check "keyed slave after it: exit 0" \
	slave 1 out fcntl 127.0.0.1 --key k1 -w $WAIT_MS
wait $mpid
check_equal "keyed master: exit 0" $? 0
check_same "keyed transfer: identical" in out
rm -f out

# The same in mmap mode on both sides.
master 1 in mmap --key k1 >master.log 2>&1 &
mpid=$!
check "keyed, mmap: slave exit 0" \
	slave 1 out mmap 127.0.0.1 --key k1 -w $WAIT_MS
wait $mpid
check_equal "keyed, mmap: master exit 0" $? 0
check_same "keyed, mmap: identical" in out
rm -f out

# A wrong key: the slave fails with exit 4 and writes nothing; the master
# drops it and still serves the right slave.
master 1 in fcntl --key k1 >master.log 2>&1 &
mpid=$!
slave 1 out fcntl 127.0.0.1 --key k2 -w $WAIT_MS >slave.log 2>&1
check_equal "slave with the wrong key: exit 4" $? 4
check_output "slave with the wrong key: says the handshake failed" \
	'key handshake with the master failed' cat slave.log
no_output "slave with the wrong key"
check "master with the other key: logs the drop" \
	wait_log master.log 'dropped a peer .*: it does not hold the key'
# A slave without --key: it sees the handshake (exit 4, says so); the
# master drops it.
slave 1 out fcntl 127.0.0.1 -w $WAIT_MS >slave.log 2>&1
check_equal "slave without a key vs keyed master: exit 4" $? 4
check_output "slave without a key: says the master runs with --key" \
	'the master starts a key handshake \(it runs with --key\) and this slave has no key' \
	cat slave.log
no_output "slave without a key"
check "slave with the key after both: exit 0" \
	slave 1 out fcntl 127.0.0.1 --key k1 -w $WAIT_MS
wait $mpid
check_equal "master after two bad slaves: exit 0" $? 0
check_same "identical after two bad slaves" in out
rm -f out

# A fake master feeding a keyed slave: refused, exit 4, nothing written.
badpeer master --port $BP_PORT ok in >peer.log 2>&1 &
pid=$!
slave 1 out fcntl 127.0.0.1:$BP_PORT --key k1 -w $WAIT_MS >slave.log 2>&1
check_equal "keyed slave vs fake master: exit 4" $? 4
check_output "keyed slave vs fake master: says the master did not start a handshake" \
	'it did not start one' cat slave.log
no_output "keyed slave vs fake master"
kill $pid 2>/dev/null
wait $pid 2>/dev/null

# A master with the wrong key: the slave refuses it (exit 4).
master 1 in fcntl --key k2 >master.log 2>&1 &
mpid=$!
slave 1 out fcntl 127.0.0.1 --key k1 -w $WAIT_MS >slave.log 2>&1
check_equal "keyed slave vs master with another key: exit 4" $? 4
no_output "keyed slave vs master with another key"
kill $mpid
wait $mpid 2>/dev/null

# Key files: group-readable or too short are refused before anything.
chmod 0640 k1
check_exit "a group-readable key file: exit 1" 1 \
	slave 1 out fcntl 127.0.0.1 --key k1
check_output "says why" 'only its owner can read' \
	slave 1 out fcntl 127.0.0.1 --key k1
(umask 077 && printf short >k3)
check_output "a key of 5 bytes: refused" 'wrong size' \
	master 1 in fcntl --key k3

# --peer: a master that accepts 127.0.0.9 only resets the slave from
# 127.0.0.1, which fails; the master is still waiting.
master 1 in fcntl --peer 127.0.0.9 >master.log 2>&1 &
mpid=$!
slave 1 out fcntl 127.0.0.1 -w $WAIT_MS >slave.log 2>&1
check_equal "slave from another address than --peer: exit 1" $? 1
no_output "slave from another address than --peer"
check "master --peer: still waiting" kill -0 $mpid
kill $mpid
wait $mpid 2>/dev/null
check_exit "slave --peer 127.0.0.9 connecting to 127.0.0.1: exit 1" 1 \
	slave 1 out fcntl 127.0.0.1 --peer 127.0.0.9

# crowd COUNT CASE: COUNT strangers that never prove the key (silent, or
# greeting and then silent), each connecting again as soon as the master
# drops it, queue before the keyed slave; the slave, started while they
# are dropped and reconnect, still gets the files within its own 10 s
# handshake deadline, and the master counts them.
crowd() {
	master 1 in fcntl --key k1 >master.log 2>&1 &
	mpid=$!
	badpeer slave --count "$1" --stall 120 127.0.0.1 "$2" >crowd.log 2>&1 &
	cpid=$!
	check "$1 strangers ($2): the master drops them" \
		wait_log master.log 'dropped a peer that .* \(3 so far\)'
	slave 1 out fcntl 127.0.0.1 --key k1 -w $WAIT_MS >slave.log 2>&1
	check_equal "keyed slave behind $1 reconnecting strangers ($2): exit 0" $? 0
	wait_gone $mpid 60
	check_equal "keyed master with $1 strangers ($2): exit 0" $? 0
	check_same "keyed slave behind $1 strangers ($2): identical" in out
	rm -f out
	kill $cpid 2>/dev/null
	wait $cpid 2>/dev/null
}
chmod 0600 k1
crowd 3 crowd
crowd 3 crowdhello
crowd 17 crowd
finish
