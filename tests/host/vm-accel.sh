#!/bin/sh
# The accelerator decision (scripts/vm/vm-accel.sh) on whatever KVM this
# host has: each case runs in a mount namespace whose /dev is a private
# tmpfs holding null, zero, full, random, urandom, fd and, per case, no kvm,
# a regular file or /dev/null as /dev/kvm, with the real QEMU; then the
# steps QEMU cannot be made to fail here (a KVM that starts but whose
# guest does not boot, or boots), the cache, and the arguments vm-run
# gives QEMU, with a stand-in qemu-system-x86_64 first on PATH.  No guest
# boots.
. tests/lib.sh

tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
# Root makes the namespace, anyone else a user namespace where they are.
ns="unshare -m"
[ "$(id -u)" = 0 ] || ns="unshare -r -m"

cat >"$tmp/nsdev" <<'EOF'
# nsdev KVM COMMAND...: COMMAND with a /dev of its own, where KVM is none,
# file (a regular file), null (/dev/null) or private (a file only root
# may open).
set -e
d=$(mktemp -d)
mount -t tmpfs none "$d"
for n in null zero full random urandom; do : >"$d/$n"; mount --bind "/dev/$n" "$d/$n"; done
ln -s /proc/self/fd "$d/fd"
case $1 in
file) : >"$d/kvm"; chmod 666 "$d/kvm" ;;
null) : >"$d/kvm"; mount --bind /dev/null "$d/kvm" ;;
private) : >"$d/kvm"; chmod 600 "$d/kvm" ;;
esac
mount --move "$d" /dev
# FAKE_CPU_FLAGS: the CPU flags /proc/cpuinfo shows instead of the host's.
if [ -n "${FAKE_CPU_FLAGS:-}" ]; then
	c=$(mktemp)
	printf 'flags\t\t: %s\n' "$FAKE_CPU_FLAGS" >"$c"
	mount --bind "$c" /proc/cpuinfo
fi
shift
exec "$@"
EOF
# nsrun KVM COMMAND...: COMMAND in a namespace of nsdev.
nsrun() {
	# shellcheck disable=SC2086 # the command is two or three words
	$ns sh "$tmp/nsdev" "$@"
}
# accel KVM ARG...: vm-accel in such a namespace (QEMU as the user
# $as_user, if set), its stdout then its stderr.
as_user=""
accel() {
	_kvm=$1
	shift
	_o=$(nsrun "$_kvm" env SYNCDEV_VM_DIR="$tmp/vm" SYNCDEV_QEMU_USER="$as_user" \
		scripts/vm/vm-accel "$@" 2>"$tmp/accel.err")
	_rc=$?
	printf '%s\n' "$_o"
	cat "$tmp/accel.err"
	return $_rc
}

check_equal "no /dev/kvm: TCG, saying why" "$(accel none)" \
	"tcg
vm-accel: accelerator: tcg (no /dev/kvm)"
check_output "a regular file as /dev/kvm: TCG, with QEMU's reason" \
	'^vm-accel: accelerator: tcg \(QEMU cannot start KVM: .+\)$' accel file
check_equal "... and the decision on stdout is tcg" "$(accel file | head -n 1)" tcg
check_output "/dev/null as /dev/kvm: TCG, with QEMU's reason" \
	'^vm-accel: accelerator: tcg \(QEMU cannot start KVM: .+\)$' accel null
if [ "$(id -u)" = 0 ]; then
	as_user=nobody
	check_output "a /dev/kvm the user QEMU runs as cannot open: TCG, naming the user" \
		'^vm-accel: accelerator: tcg \(/dev/kvm does not open read-write for nobody: Permission denied\)$' \
		accel private
	check_equal "no /dev/kvm with QEMU as another user: TCG, and no other line (no stat error)" \
		"$(accel none)" "tcg
vm-accel: accelerator: tcg (no /dev/kvm)"
	as_user=""
fi
check_output "--accel kvm without /dev/kvm: an error that says why" \
	'^vm-accel: --accel kvm: KVM cannot run the guests: no /dev/kvm$' accel none --accel kvm
check_exit "... exit 1" 1 accel none --accel kvm
check_output "--accel kvm on a device QEMU refuses: an error with QEMU's reason" \
	'^vm-accel: --accel kvm: KVM cannot run the guests: QEMU cannot start KVM: ' accel null --accel kvm
check_exit "vm-run --accel kvm without /dev/kvm exits 1 before any boot" 1 \
	nsrun none env SYNCDEV_VM_DIR="$tmp/vm" scripts/vm/vm-run --accel kvm -- true
check_output "SYNCDEV_ACCEL=kvm is --accel kvm, for vm-pair too" '^vm-pair: --accel kvm: ' \
	nsrun none env SYNCDEV_VM_DIR="$tmp/vm" SYNCDEV_ACCEL=kvm scripts/vm/vm-pair -- true
check_equal "--accel tcg: TCG without a look at the device" "$(accel file --accel tcg)" \
	"tcg
vm-accel: accelerator: tcg (asked for)"
check_exit "--accel takes auto, kvm or tcg" 2 scripts/vm/vm-accel --accel fast
check_output "SYNCDEV_ACCEL is checked too, naming the values" \
	"is auto, kvm or tcg, not 'fast'" env SYNCDEV_ACCEL=fast scripts/vm/vm-run -- true
check_exit "grade --accel fast is a usage error" 2 scripts/grade/grade --accel fast --vms 1 --out "$tmp/g"
check_equal "a run's decision passed on: no second check, no second line" \
	"$(SYNCDEV_ACCEL_PICKED='auto tcg no /dev/kvm' accel file 2>&1)" tcg
check_output "another request than the one passed on is decided again" \
	'accelerator: tcg \(asked for\)' env SYNCDEV_ACCEL_PICKED='auto kvm x' scripts/vm/vm-accel --accel tcg

# --- the steps after QEMU's KVM start, with a stand-in QEMU ---------------
# It logs its arguments; with -machine none (the KVM start) it succeeds;
# booting, it writes a kernel's panic to the serial file when FAKE_BOOT
# is ok, else exits 1 as a guest that never booted; as vm-run's guest it
# exits 1 at once.
mkdir -p "$tmp/bin"
cat >"$tmp/bin/qemu-system-x86_64" <<'EOF'
#!/bin/sh
echo "$* groups=$(id -G)" >>"$FAKE_LOG"
case " $* " in
*" -machine none "*) exit 0 ;;
*" -serial file:"*)
	for a; do case $a in file:*) f=${a#file:} ;; esac; done
	[ "$FAKE_BOOT" = ok ] || { echo "no boot" >&2; exit 1; }
	echo "Kernel panic - not syncing: VFS: Unable to mount root fs" >"$f"
	exit 0 ;;
esac
exit 1
EOF
chmod 755 "$tmp/bin/qemu-system-x86_64"
# fake [VAR=VALUE...] COMMAND...: COMMAND in a namespace with a regular
# file as /dev/kvm and the stand-in QEMU; its stdout, then its stderr.
fake() {
	_o=$(FAKE_CPU_FLAGS=${FAKE_CPU_FLAGS:-fpu vmx} nsrun file env PATH="$tmp/bin:$PATH" FAKE_LOG="$tmp/qemu.log" \
		SYNCDEV_VM_DIR="$tmp/fvm" "$@" 2>"$tmp/fake.err")
	_rc=$?
	printf '%s\n' "$_o"
	cat "$tmp/fake.err"
	return $_rc
}
kver=$(bash -c '. scripts/vm/vm-common.sh && vm_pick_kernel && echo "$VM_KVER"')
check_equal "a CPU that shows neither vmx nor svm: TCG at once, no boot" \
	"$(FAKE_CPU_FLAGS="fpu sse2" fake FAKE_BOOT=ok scripts/vm/vm-accel)" \
	"tcg
vm-accel: accelerator: tcg (the CPU shows neither vmx nor svm)"
: >"$tmp/qemu.log"
check_equal "KVM that starts, a guest that does not boot: TCG, saying so" \
	"$(fake FAKE_BOOT=no scripts/vm/vm-accel)" \
	"tcg
vm-accel: accelerator: tcg (a KVM guest of $kver did not boot (QEMU exit 1: no boot))"
check_output "the boot check runs the kernel under KVM with the host's CPU" \
	'-accel kvm -cpu host .*-no-reboot -serial file:[^ ]*/console -kernel [^ ]*/vmlinuz' cat "$tmp/qemu.log"
: >"$tmp/qemu.log"
check_output "the outcome is cached: the next run does not boot again" \
	"accelerator: tcg \(a KVM guest of $kver did not boot .*; cached in $tmp/fvm/accel.cache\)" \
	fake FAKE_BOOT=ok scripts/vm/vm-accel
check_equal "... QEMU ran once, for the KVM start" "$(grep -c '' "$tmp/qemu.log")" 1
check_output "--accel kvm boots again and succeeds" "^vm-accel: accelerator: kvm \(a KVM guest of $kver boots\)$" \
	fake FAKE_BOOT=ok scripts/vm/vm-accel --accel kvm
rm -f "$tmp/fvm/accel.cache"
check_equal "a guest that boots under KVM: KVM" "$(fake FAKE_BOOT=ok scripts/vm/vm-accel | head -n 1)" kvm

# vm-run's QEMU command line for each decision (the stand-in exits 1:
# vm-run says the guest stopped without a status, exit 125).
: >"$tmp/qemu.log"
check_exit "vm-run under a decided KVM starts QEMU" 125 \
	fake SYNCDEV_ACCEL_PICKED='auto kvm test' scripts/vm/vm-run -- true
check_output "... with -accel kvm -cpu host" '^-accel kvm -cpu host -sandbox ' cat "$tmp/qemu.log"
: >"$tmp/qemu.log"
fake SYNCDEV_ACCEL_PICKED='auto tcg test' scripts/vm/vm-run -- true >/dev/null
check_output "under TCG: -accel tcg and QEMU's own CPU model" '^-accel tcg -sandbox ' cat "$tmp/qemu.log"
if [ "$(id -u)" = 0 ]; then
	# As the grader runs it: QEMU as another user, which under KVM keeps
	# the group of /dev/kvm (here the nsdev file's, root's: 0) and no other.
	: >"$tmp/qemu.log"
	chmod 666 "$tmp/qemu.log"
	fake SYNCDEV_ACCEL_PICKED='auto kvm test' SYNCDEV_QEMU_USER=nobody scripts/vm/vm-run -- true >/dev/null
	check_output "QEMU as another user under KVM: the device's group only" \
		"groups=$(id -g nobody) 0\$" cat "$tmp/qemu.log"
	: >"$tmp/qemu.log"
	fake SYNCDEV_ACCEL_PICKED='auto tcg test' SYNCDEV_QEMU_USER=nobody scripts/vm/vm-run -- true >/dev/null
	check_output "... under TCG: no supplementary group" "groups=$(id -g nobody)\$" cat "$tmp/qemu.log"
fi
finish
