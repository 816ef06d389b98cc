# shellcheck shell=bash
# Sourced by scripts/vm/vm-build, vm-run, vm-pair, vm-shell and grade: a host
# directory shared read-write with the guest (--share DIR), and what the
# image needs for it and for programs built elsewhere.
#
# The share is virtio-9p (QEMU's built-in -virtfs; docs/vm.md says why not
# virtiofs): the guest mounts it at /share with cache=mmap, so every write
# reaches the host file at once (a guest that panics later loses nothing
# it wrote) and MAP_SHARED mappings of shared files work.
#
# security_model=mapped-xattr: whatever the guest creates is a plain file
# or directory on the host, owned by the user who runs QEMU and readable by
# that user only; the guest's owners, modes, symbolic links, FIFOs and
# device nodes live in user.virtfs.* extended attributes.  So nothing a
# guest makes can send a host program that reads the share elsewhere (a
# link to ~/.bashrc), block it (a FIFO) or hand it a setuid file.
#
# --input DIR is a second share, read-only, at /input: what the host gives
# the guest (programs, settings, data) and the guest cannot change.
# shellcheck disable=SC2034 # its variables are for the scripts that source it

VM_SHARE_TAG=syncdev_share
VM_SHARE_MOUNT=/share
VM_INPUT_TAG=syncdev_input
VM_INPUT_MOUNT=/input

# vm_module_deps MODULE...: the .ko files MODULE... need, in load order,
# for the guest kernel ($VM_KVER, config in $VM_KDIR); nothing for a
# module built into that kernel.
vm_module_deps() {
	local m opt deps=""
	for m; do
		opt=$(echo "$m" | tr "[:lower:]" "[:upper:]")
		case $m in
		9p) opt=9P_FS ;;
		9pnet_virtio) opt=NET_9P_VIRTIO ;;
		esac
		case $(vm_kconfig "$opt") in
		y) ;;
		m) deps+=$(vm_modprobe_deps "$m") ||
			vm_die "cannot find module $m of $VM_KVER" ;;
		*) vm_die "kernel $VM_KVER has no CONFIG_$opt (see $VM_KDIR/.config)" ;;
		esac
		deps+=$'\n'
	done
	awk '$1 == "insmod" && !seen[$2]++ { print $2 }' <<<"$deps"
}

# vm_pack_share ROOT: the 9p modules into ROOT/lib/modules, their names in
# load order into ROOT/lib/modules/share.order (the guest's
# scripts/guest/share loads them).
vm_pack_share() {
	local ko
	vm_module_deps virtio_pci 9pnet_virtio 9p | while read -r ko; do
		cp "$ko" "$1/lib/modules/"
		echo "${ko##*/}"
	done >"$1/lib/modules/share.order"
}

# vm_pack_libc ROOT: the host's C library and dynamic loader, so that a
# student's dynamically linked program built on a Debian 12 machine runs
# in the busybox guest (ours are static).
vm_pack_libc() {
	local lib dir
	for lib in /lib64/ld-linux-x86-64.so.2 /lib/x86_64-linux-gnu/{libc,libm,libpthread,libdl,librt,libresolv}.so.*; do
		[ -e "$lib" ] || continue
		dir=$1/$(dirname "$lib")
		mkdir -p "$dir"
		cp -L "$lib" "$dir/"
	done
}

# vm_share_path CALLER_DIR DIR: DIR (relative to CALLER_DIR, where the
# user ran the script, which has moved to the repository since) as an
# absolute path; exit 2 when it is not a directory.
vm_share_path() {
	local d=$2
	case $d in /*) ;; *) d=$1/$d ;; esac
	[ -d "$d" ] || { echo "${0##*/}: --share $2: not a directory" >&2; exit 2; }
	realpath "$d"
}

# vm_share_qemu_args DIR [ro]: the QEMU options sharing DIR, one per line:
# read-write at /share, or with ro read-only at /input.
vm_share_qemu_args() {
	local dir tag=$VM_SHARE_TAG id=share0 ro=""
	dir=$(realpath "$1")
	case $dir in *,*) vm_die "--share/--input: QEMU cannot share a path with a comma: $dir" ;; esac
	[ "${2:-}" = ro ] && tag=$VM_INPUT_TAG id=input0 ro=,readonly=on
	printf '%s\n' -virtfs \
		"local,path=$dir,mount_tag=$tag,security_model=mapped-xattr,id=$id$ro"
}
