# shellcheck shell=bash
# Sourced by the vm-* scripts: which kernel the guest boots, where the image
# and logs live, and the helpers they share.  Run from the repository root.
#
#   VM_KVER       kernel release the guest boots
#   VM_KERNEL     its bzImage
#   VM_KDIR       the kernel build tree the module is built against
#   VM_TIME_SCALE how much slower than the stock kernel it runs (timeouts)
#   VM_SIZE_DIV   what the tests' bulk transfers are divided by on it
#   VM_SMP        the guest's CPUs (SYNCDEV_SMP, default 2)
#   VM_APPEND     what its command line needs beyond the console settings
#   VM_DIR        images and logs: build/vm (SYNCDEV_VM_DIR overrides)
#   VM_IMG        what scripts/vm/vm-build makes for that kernel: VM_DIR/KVER
#   VM_INITRD     the base initramfs built by scripts/vm/vm-build
#   VM_MODULE     syncdev.ko built for that kernel (from a copy of kernel/
#                 in VM_IMG/module, so that kernels never share objects)
#   VM_LOGS       console logs, one per guest boot
#
#   VM_MODROOT    the root whose lib/modules/VM_KVER holds its modules
#   VM_CHROOT     the root the module is built in (in bubblewrap, as an
#                 ordinary user), or empty: the host
#
# The kernel is the newest /boot/vmlinuz-*-amd64 whose headers are
# installed (Debian 12's 6.1 on Debian 12), or the one SYNCDEV_KERNEL
# names (the scripts' --kernel and make's KERNEL= set it):
#   6.1, 6.12, newest  a Debian kernel that scripts/vm/vm-kernel fetches
#   debug              the one scripts/vm/debug-kernel built and cached for
#                      scripts/vm/debug-kernel.config
#   DIR                a built kernel source tree anywhere, or a kit
#                      directory of scripts/vm/vm-kernel
# A kernel built from a source tree must have virtio-net built in.  A debug kernel (KASAN, lockdep) runs several times slower:
# timeouts grow by SYNCDEV_TIME_SCALE (default 4 for it, 1 for the stock
# kernel), and the tests' bulk transfers (tens of MiB, there for volume,
# not for a boundary) shrink by SYNCDEV_SIZE_DIV (default 8 for it, 1 for
# the stock kernel; tests/lib.sh bulk).
# shellcheck disable=SC2034 # its variables are for the scripts that source it

VM_DIR=${SYNCDEV_VM_DIR:-build/vm}
VM_LOGS=$VM_DIR/logs
# Guest addresses on the two-VM link: link-local, so nothing is ever routed.
VM_MASTER_IP=169.254.25.1
VM_SLAVE_IP=169.254.25.2
# Lines the guest's /init prints around the command and its kernel log.
VM_MARK="syncdev-vm:"

vm_die() {
	echo "${0##*/}: $*" >&2
	exit 1
}

vm_pick_kernel() {
	VM_MODROOT=/
	VM_CHROOT=""
	case ${SYNCDEV_KERNEL:-} in
	""|stock) vm_pick_stock_kernel ;;
	debug) vm_pick_debug_kernel ;;
	6.1|6.12|newest) vm_pick_kit_kernel "$(scripts/vm/vm-kernel "$SYNCDEV_KERNEL")" || exit 1 ;;
	*/*) if [ -f "$SYNCDEV_KERNEL/release" ] && [ -f "$SYNCDEV_KERNEL/kdir" ]; then
		vm_pick_kit_kernel "$SYNCDEV_KERNEL"
	   else
		vm_pick_tree_kernel "$SYNCDEV_KERNEL"
	   fi ;;
	*) vm_die "unknown kernel '$SYNCDEV_KERNEL': 6.1, 6.12, newest, debug, or the path of a built kernel tree (e.g. ./linux)" ;;
	esac
	VM_IMG=$VM_DIR/$VM_KVER
	VM_INITRD=$VM_IMG/initrd.img
	VM_MODULE=$VM_IMG/module/kernel/syncdev.ko
	VM_SMP=${SYNCDEV_SMP:-2}
	vm_positive SYNCDEV_TIME_SCALE "$VM_TIME_SCALE"
	vm_positive SYNCDEV_SIZE_DIV "$VM_SIZE_DIV"
	vm_positive SYNCDEV_SMP "$VM_SMP"
}

# vm_positive NAME VALUE: die unless VALUE (of the setting NAME) is a
# positive integer.
vm_positive() {
	case $2 in
	""|*[!0-9]*|0) vm_die "$1 must be a positive integer, not '$2'" ;;
	esac
}

vm_pick_stock_kernel() {
	local k ver
	VM_KVER=""
	# Debian names its kernels -amd64, Ubuntu -generic.
	for k in $(ls /boot/vmlinuz-*-amd64 /boot/vmlinuz-*-generic 2>/dev/null | sort -V); do
		ver=${k#/boot/vmlinuz-}
		[ -d "/lib/modules/$ver/build" ] && VM_KVER=$ver
	done
	[ -n "$VM_KVER" ] ||
		vm_die "no /boot/vmlinuz-*-amd64 (or -generic) with headers in /lib/modules/*/build; run scripts/deps"
	VM_KERNEL=/boot/vmlinuz-$VM_KVER
	VM_KDIR=/lib/modules/$VM_KVER/build
	VM_TIME_SCALE=${SYNCDEV_TIME_SCALE:-1}
	VM_SIZE_DIV=${SYNCDEV_SIZE_DIV:-1}
	VM_APPEND=""
	# Debian installs the bzImage mode 0600; QEMU only needs to read it.
	[ -r "$VM_KERNEL" ] ||
		vm_die "cannot read $VM_KERNEL (Debian makes it root-only: sudo chmod a+r $VM_KERNEL)"
}

# vm_pick_kit_kernel KIT: a Debian kernel scripts/vm/vm-kernel fetched.
vm_pick_kit_kernel() {
	local kit=$1
	[ -n "$kit" ] && [ -f "$kit/release" ] || vm_die "no kernel kit in '$kit' (scripts/vm/vm-kernel)"
	VM_KVER=$(cat "$kit/release")
	VM_KERNEL=$kit/vmlinuz
	VM_KDIR=$(cat "$kit/kdir")
	VM_MODROOT=$kit/root
	[ -f "$kit/chroot" ] && VM_CHROOT=$(cat "$kit/chroot")
	VM_TIME_SCALE=${SYNCDEV_TIME_SCALE:-1}
	VM_SIZE_DIV=${SYNCDEV_SIZE_DIV:-1}
	VM_APPEND=""
	[ -r "$VM_KERNEL" ] || vm_die "cannot read $VM_KERNEL"
}

# vm_kconfig OPTION: y, m or nothing: how the guest's kernel has
# CONFIG_OPTION.
vm_kconfig() {
	sed -n "s/^CONFIG_$1=//p" "$VM_CHROOT$VM_KDIR/.config" 2>/dev/null
}

# vm_modprobe_deps MODULE: modprobe's insmod lines for MODULE of the
# guest's kernel and its dependencies, in load order.
vm_modprobe_deps() {
	modprobe -d "$VM_MODROOT" -S "$VM_KVER" --show-depends "$1"
}

# vm_kbuild DIR MAKE-ARGUMENT...: kbuild of the module in DIR against the
# guest's kernel: on the host, or in the kernel's build root (bubblewrap:
# the root's top-level directories read-only, DIR writable at the same
# path, no privilege needed, nothing left mounted).
vm_kbuild() {
	local dir
	dir=$(realpath "$1")
	shift
	if [ -z "$VM_CHROOT" ]; then
		make -C "$VM_KDIR" M="$dir" "$@"
		return
	fi
	local a=()
	mapfile -t a < <(vm_root_binds "$VM_CHROOT" "$dir")
	bwrap "${a[@]}" --proc /proc --dev /dev --tmpfs /tmp --bind "$dir" "$dir" \
		--remount-ro / --unshare-all --die-with-parent \
		make -C "$VM_KDIR" M="$dir" "$@"
}

# vm_root_binds ROOT [DIR]: bubblewrap's arguments that show ROOT's
# top-level directories and links (proc, dev, sys and tmp excepted)
# read-only as the sandbox's own, on a root where any other mount point can
# be made; DIR's top-level directory is left out too, so that DIR can be
# bound where it is (a root built by an older recipe may hold it, empty).
vm_root_binds() {
	local e n top=${2#/}
	top=${top%%/*}
	case $top in usr|etc|bin|sbin|lib*|var) top="" ;; esac
	for e in "$1"/*; do
		n=${e##*/}
		case $n in proc|dev|sys|tmp|"$top") continue ;; esac
		if [ -L "$e" ]; then
			printf '%s\n' --symlink "$(readlink "$e")" "/$n"
		elif [ -d "$e" ]; then
			printf '%s\n' --ro-bind "$e" "/$n"
		fi
	done
}

# vm_sandbox_args: scripts/grade/grade-sandbox's arguments that show the
# guest kernel's headers (and, for the newest kernel, its build root as /).
vm_sandbox_args() {
	if [ -n "$VM_CHROOT" ]; then
		printf '%s\n' --root "$VM_CHROOT"
		return
	fi
	printf '%s\n' --ro "$VM_KDIR"
	[ "$VM_MODROOT" = / ] || printf '%s\n' --ro "$VM_MODROOT"
}

# vm_pick_debug_kernel: the cached build of scripts/vm/debug-kernel.
vm_pick_debug_kernel() {
	local tree
	tree=$(scripts/vm/debug-kernel --print-path) || exit 1
	vm_pick_tree_kernel "$tree"
}

# vm_pick_tree_kernel DIR: a kernel built in the source tree DIR.
vm_pick_tree_kernel() {
	VM_KDIR=$(realpath -m "$1")
	VM_KERNEL=$VM_KDIR/arch/x86/boot/bzImage
	[ -f "$VM_KERNEL" ] && [ -f "$VM_KDIR/include/config/kernel.release" ] ||
		vm_die "no built kernel in $VM_KDIR (SYNCDEV_KERNEL=${SYNCDEV_KERNEL:-}; scripts/vm/debug-kernel builds one)"
	VM_KVER=$(cat "$VM_KDIR/include/config/kernel.release")
	VM_TIME_SCALE=${SYNCDEV_TIME_SCALE:-4}
	VM_SIZE_DIV=${SYNCDEV_SIZE_DIV:-8}
	# A debug kernel interprets ACPI so slowly under TCG that evaluating
	# the PCI interrupt routing (QEMU's _PRT, a loop) hits ACPICA's 30 s
	# loop timeout, and virtio devices get no interrupt: route PCI
	# interrupts from the BIOS's table instead (ACPI still powers off).
	VM_APPEND="pci=noacpi"
}

# vm_log_problems LOG: print the kernel log lines of a guest console log
# that show a kernel bug (scripts/guest/kernel-problems.ere, the pattern
# the grader's guests use too).  The kernel log is the dmesg dump the guest's
# /init prints at the end, plus kernel lines that reached the console
# during the run (they carry the printk timestamp), which is all there is
# when the guest died before the dump.
vm_log_problems() {
	awk -v mark="$VM_MARK" '
		index($0, mark " kernel log begins") == 1 { in_log = 1; next }
		index($0, mark " kernel log ends") == 1 { in_log = 0; next }
		in_log || /^\[ *[0-9]+\.[0-9]+\] / { print }
	' "$1" | grep -E -f scripts/guest/kernel-problems.ere |
		awk '!seen[$0]++' | head -n 20
}

# vm_exit_status LOG: the exit status the guest reported, or nothing.
vm_exit_status() {
	sed -n "s/^$VM_MARK exit status \([0-9]\{1,3\}\)\$/\1/p" "$1" | tail -n 1
}

# vm_current_test LOG: the last test the guest started (see guest/run-tests).
vm_current_test() {
	sed -n "s/^$VM_MARK test //p" "$1" | tail -n 1
}

# vm_usage: the calling script's header comment, its usage text.
vm_usage() {
	awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"
}

# vm_make_module [MAKE-ARGUMENT...]: syncdev.ko for the guest's kernel,
# VM_MODULE, built (make -s modules, or the arguments given) from a copy
# of kernel/ whose times are kept, so that kbuild rebuilds only what
# changed.
vm_make_module() {
	local dir=$VM_IMG/module
	mkdir -p "$dir/kernel/uapi"
	cp -pu Kbuild "$dir/"
	cp -pu kernel/Kbuild kernel/*.c kernel/*.h "$dir/kernel/"
	cp -pu kernel/uapi/*.h "$dir/kernel/uapi/"
	[ $# -gt 0 ] || set -- -s modules
	vm_kbuild "$dir" "$@"
}

# vm_nfs_kit: the remote-disk kit that scripts/vm/vm-build packs with
# scripts/vm/vm-build-nfs (an archive appended to the initramfs).
vm_nfs_kit() {
	[ -f "$VM_IMG/nfs.cpio" ] || vm_die "no $VM_IMG/nfs.cpio: run scripts/vm/vm-build"
	echo "$VM_IMG/nfs.cpio"
}

# vm_disk FILE MIB: create FILE, a sparse raw disk of MIB MiB, and print
# QEMU's -drive value for it as a virtio-blk disk.  cache=writeback
# (QEMU's default) turns the guest's flushes (O_SYNC, fsync) into
# fdatasync of FILE on the host's disk.
vm_disk() {
	truncate -s "${2}M" "$1" || vm_die "cannot create the disk $1"
	echo "file=$1,if=virtio,format=raw,cache=writeback"
}

. scripts/vm/vm-accel.sh

# vm_console_cap: stdin to stdout, at most SYNCDEV_CONSOLE_MAX bytes (all
# of it when unset); past the cap, a line that says so, and the rest read
# and dropped, so that the guest never blocks on its console.  Bytes, not
# lines: a guest's line can be endless.
vm_console_cap() {
	if [ -z "${SYNCDEV_CONSOLE_MAX:-}" ]; then
		cat
		return
	fi
	stdbuf -o0 head -c "$SYNCDEV_CONSOLE_MAX"
	[ "$(head -c 1 | wc -c)" = 1 ] || return 0
	printf '\nvm-run: console output over %s bytes: the rest was dropped\n' "$SYNCDEV_CONSOLE_MAX"
	cat >/dev/null
}
