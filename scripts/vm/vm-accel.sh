# shellcheck shell=bash
# Sourced by scripts/vm/vm-common.sh: which accelerator QEMU runs the
# guests under, KVM or TCG (software emulation), and why.
#
#   SYNCDEV_ACCEL   auto (default), kvm or tcg: what the runners' --accel
#                   sets
#   VM_ACCEL        kvm or tcg, after vm_pick_accel
#   VM_ACCEL_WHY    the reason, one line
#   VM_ACCEL_ARGS   QEMU's arguments for it (-accel kvm -cpu host, or
#                   -accel tcg)
#
# auto takes KVM when /dev/kvm opens read-write for the user QEMU runs as,
# QEMU starts KVM (a machine with no board), the CPU shows VMX or SVM, and a
# guest of the kernel
# VM_KERNEL boots under KVM to its panic for want of a root file system
# within a time limit: a host can give a KVM that starts and then runs
# nothing past real mode (seen on a hypervisor that passes /dev/kvm to
# its guests without nested virtualization).  Any other outcome is TCG,
# with the failed step as the reason; kvm then is an error (exit 1).  The
# boot's outcome is kept in VM_DIR/accel.cache per host boot, QEMU binary,
# kernel and user, so that a host whose KVM hangs pays the time limit once.
#
# The decision is printed once, "NAME: accelerator: ACCEL (WHY)" on
# stderr, and exported (SYNCDEV_ACCEL_PICKED) to the scripts started
# afterwards: the guests of one run share it without asking again.

VM_KVM_DEV=/dev/kvm
# Seconds the boot check may take: a KVM guest gets there in one or two.
VM_KVM_BOOT_LIMIT=20

# vm_pick_accel: set VM_ACCEL, VM_ACCEL_WHY and VM_ACCEL_ARGS from
# SYNCDEV_ACCEL; after vm_pick_kernel.  Exits 1 when kvm is asked for and
# cannot run, 2 on a value that is none of auto, kvm, tcg.
vm_pick_accel() {
	local want=${SYNCDEV_ACCEL:-auto} picked=${SYNCDEV_ACCEL_PICKED:-}
	case $want in
	auto|kvm|tcg) ;;
	*) echo "${0##*/}: --accel (SYNCDEV_ACCEL) is auto, kvm or tcg, not '$want'" >&2; exit 2 ;;
	esac
	if [ "${picked%% *}" = "$want" ]; then
		picked=${picked#* }
		VM_ACCEL=${picked%% *}
		VM_ACCEL_WHY=${picked#* }
	elif [ "$want" = tcg ]; then
		VM_ACCEL=tcg VM_ACCEL_WHY="asked for"
	elif VM_ACCEL_WHY=$(vm_kvm_check "$want"); then
		VM_ACCEL=kvm
	elif [ "$want" = kvm ]; then
		echo "${0##*/}: --accel kvm: KVM cannot run the guests: $VM_ACCEL_WHY" >&2
		exit 1
	else
		VM_ACCEL=tcg
	fi
	case $VM_ACCEL in
	kvm|tcg) ;;
	*) echo "${0##*/}: SYNCDEV_ACCEL_PICKED names no accelerator: '$SYNCDEV_ACCEL_PICKED'" >&2; exit 2 ;;
	esac
	if [ "${SYNCDEV_ACCEL_PICKED:-}" != "$want $VM_ACCEL $VM_ACCEL_WHY" ]; then
		echo "${0##*/}: accelerator: $VM_ACCEL ($VM_ACCEL_WHY)" >&2
		export SYNCDEV_ACCEL_PICKED="$want $VM_ACCEL $VM_ACCEL_WHY"
	fi
	# -cpu host: the guest sees the host's CPU (TCG's default model
	# lacks features the kernel then emulates or does without).
	VM_ACCEL_ARGS=(-accel "$VM_ACCEL")
	[ "$VM_ACCEL" = tcg ] || VM_ACCEL_ARGS+=(-cpu host)
}

# vm_qemu_user_args: setpriv's user and group arguments for QEMU when it
# runs as SYNCDEV_QEMU_USER (vm-run as root): no group but the one that
# owns /dev/kvm, and that one only under KVM.
vm_qemu_user_args() {
	local uid gid kvm
	uid=$(id -u "$SYNCDEV_QEMU_USER") && gid=$(id -g "$SYNCDEV_QEMU_USER") ||
		vm_die "SYNCDEV_QEMU_USER=$SYNCDEV_QEMU_USER: no such user"
	printf '%s\n' --reuid "$uid" --regid "$gid"
	if [ "${VM_ACCEL:-tcg}" = kvm ] && kvm=$(stat -c %g "$VM_KVM_DEV" 2>/dev/null); then
		printf '%s\n' --groups "$kvm"
	else
		printf '%s\n' --clear-groups
	fi
}

# vm_kvm_check WANT: print why KVM can run the guests and succeed, or why
# not and fail.  WANT kvm asks the boot again instead of using the cache.
vm_kvm_check() {
	local runas=() out key cached
	if [ ! -e "$VM_KVM_DEV" ]; then
		echo "no $VM_KVM_DEV"
		return 1
	fi
	if [ -n "${SYNCDEV_QEMU_USER:-}" ] && [ "$(id -u)" = 0 ]; then
		mapfile -t runas < <(VM_ACCEL=kvm vm_qemu_user_args)
		runas=(setpriv "${runas[@]}" --no-new-privs --)
	fi
	if ! out=$("${runas[@]}" bash -c 'exec 3<>"$1"' - "$VM_KVM_DEV" 2>&1); then
		echo "$VM_KVM_DEV does not open read-write${runas[*]:+ for ${SYNCDEV_QEMU_USER}}: ${out##*: }"
		return 1
	fi
	if ! out=$(echo quit | timeout 20 "${runas[@]}" qemu-system-x86_64 -accel kvm -machine none \
		-nodefaults -no-user-config -display none -monitor stdio 2>&1 >/dev/null); then
		echo "QEMU cannot start KVM: $(printf '%s\n' "$out" | grep -v '^$' | head -n 1)"
		return 1
	fi
	# KVM runs on the CPU's VMX or SVM: a host whose CPU shows neither
	# may hand out a /dev/kvm that runs nothing.  auto takes TCG at once
	# there; kvm still tries the boot.
	if [ "$1" = auto ] && ! grep -qwE 'vmx|svm' /proc/cpuinfo; then
		echo "the CPU shows neither vmx nor svm"
		return 1
	fi
	key="$(cat /proc/sys/kernel/random/boot_id) $(stat -L -c %i.%Y "$(command -v qemu-system-x86_64)") $VM_KERNEL ${SYNCDEV_QEMU_USER:-$(id -un)}"
	cached=$(awk -F '\t' -v k="$key" '$1 == k { line = $2 } END { print line }' \
		"$VM_DIR/accel.cache" 2>/dev/null)
	if [ "$1" = auto ] && [ -n "$cached" ]; then
		echo "${cached#* }; cached in $VM_DIR/accel.cache"
		[ "${cached%% *}" = ok ]
		return
	fi
	if out=$(vm_kvm_boot "${runas[@]}"); then cached="ok $out"; else cached="no $out"; fi
	mkdir -p "$VM_DIR" && printf '%s\t%s\n' "$key" "$cached" >>"$VM_DIR/accel.cache"
	echo "${cached#* }"
	[ "${cached%% *}" = ok ]
}

# vm_kvm_boot [RUNAS...]: boot VM_KERNEL under KVM without a root file
# system: it panics and QEMU exits (panic=-1, -no-reboot).  Print the
# outcome; fail unless the panic came within VM_KVM_BOOT_LIMIT seconds
# (times VM_TIME_SCALE).
vm_kvm_boot() {
	local dir limit=$((VM_KVM_BOOT_LIMIT * VM_TIME_SCALE)) rc=0
	dir=$(mktemp -d "${TMPDIR:-/tmp}/syncdev-kvm.XXXXXX") || return 1
	cp "$VM_KERNEL" "$dir/vmlinuz" && : >"$dir/console" || { rm -rf "$dir"; return 1; }
	# QEMU as another user reads the kernel and writes the console file,
	# the one file it owns; the directory stays the caller's, so what root
	# reads and writes there (the console, err) cannot be made a link.
	if [ $# -gt 0 ]; then
		chmod 0644 "$dir/vmlinuz"
		chgrp "$(id -g "$SYNCDEV_QEMU_USER")" "$dir" && chmod 0750 "$dir" &&
			chown "$(id -u "$SYNCDEV_QEMU_USER")" "$dir/console" || { rm -rf "$dir"; return 1; }
	fi
	timeout -k 5 "$limit" "$@" qemu-system-x86_64 -accel kvm -cpu host -smp 1 -m 256 \
		-nodefaults -no-user-config -display none -no-reboot \
		-serial "file:$dir/console" -kernel "$dir/vmlinuz" \
		-append "console=ttyS0 panic=-1 no_timer_check${VM_APPEND:+ $VM_APPEND}" \
		>/dev/null 2>"$dir/err" || rc=$?
	if grep -q 'Kernel panic' "$dir/console"; then
		echo "a KVM guest of $VM_KVER boots"
		rc=0
	elif [ "$rc" = 124 ]; then
		echo "a KVM guest of $VM_KVER did not boot within $limit s ($(grep -c '' "$dir/console") console lines)"
		rc=1
	else
		echo "a KVM guest of $VM_KVER did not boot (QEMU exit $rc: $(head -n 1 "$dir/err"))"
		rc=1
	fi
	rm -rf "$dir"
	return "$rc"
}
