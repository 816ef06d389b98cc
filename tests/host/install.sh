#!/bin/sh
# Installing like an out-of-tree driver: make install/uninstall into a
# DESTDIR, the man pages, the udev rule, and the DKMS path (add, build,
# install, remove) in private DKMS trees, for the guest kernel; then the
# module DKMS built is loaded in a guest through --share (one boot), which
# checks --share in both directions too.
. tests/lib.sh
. scripts/vm-common.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- make install / uninstall -----------------------------------------
dest=$tmp/dest
check "make install DESTDIR=... PREFIX=/usr" make -s install DESTDIR="$dest" PREFIX=/usr
missing=""
for f in bin/master bin/slave bin/osbench share/man/man1/master.1 \
	share/man/man1/slave.1 share/man/man1/osbench.1; do
	[ -f "$dest/usr/$f" ] || missing="$missing $f"
done
check_equal "make install: the three programs and their man pages" "$missing" ""
check_output "installed master runs" '^usage: master N' "$dest/usr/bin/master" --help
check "make uninstall DESTDIR=... PREFIX=/usr" make -s uninstall DESTDIR="$dest" PREFIX=/usr
check_equal "make uninstall leaves no file behind" "$(find "$dest" ! -type d)" ""
check "make install-udev DESTDIR=..." make -s install-udev DESTDIR="$dest"
check_output "the udev rule gives group syncdev both devices, 0660" \
	'KERNEL=="slave_device", GROUP="syncdev", MODE="0660"' cat "$dest/etc/udev/rules.d/60-syncdev.rules"
check "make uninstall-udev" make -s uninstall-udev DESTDIR="$dest"
check_equal "make uninstall-udev leaves no file behind" "$(find "$dest" ! -type d)" ""

# --- man pages ----------------------------------------------------------
for p in master slave osbench; do
	warn=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "docs/man/$p.1" 2>&1)
	check_equal "docs/man/$p.1: groff -man -ww has no warning" "$warn" ""
	check_output "docs/man/$p.1 renders with man -l" "^NAME" \
		env MANWIDTH=80 man -l "docs/man/$p.1"
done

# --- DKMS in private trees ----------------------------------------------
if ! command -v dkms >/dev/null; then
	fail "dkms" "dkms is not installed (scripts/deps installs it)"
	finish
fi
vm_pick_kernel
# dk ARGS...: dkms on private trees, never the machine's own.
dk() { dkms --sourcetree "$tmp/src" --dkmstree "$tmp/dkms" --installtree "$tmp/inst" "$@"; }
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
mkdir -p "$tmp/src" "$tmp/dkms" "$tmp/inst/$VM_KVER"
# depmod needs the kernel's own module index in the install tree.
cp /lib/modules/"$VM_KVER"/modules.* "$tmp/inst/$VM_KVER/"
check "make dkms-src copies the module's sources" \
	make -s dkms-src DKMS_SRC="$tmp/src/syncdev-$ver"
check "dkms add" dk add -m syncdev -v "$ver"
check "dkms build for $VM_KVER" dk build -m syncdev -v "$ver" -k "$VM_KVER"
check "dkms install for $VM_KVER" dk install -m syncdev -v "$ver" -k "$VM_KVER"
check_output "dkms status: installed" "^syncdev/$ver, $VM_KVER, x86_64: installed" dk status
ko=$tmp/inst/$VM_KVER/updates/dkms/syncdev.ko
check_output "the DKMS module is for the guest's kernel" "^$VM_KVER " modinfo -F vermagic "$ko"

# Load it in a guest through --share; the guest writes back what it saw.
mkdir -p "$tmp/share"
cp "$ko" "$tmp/share/"
echo "from the host" >"$tmp/share/in.txt"
scripts/vm-run --share "$tmp/share" -- \
	'cat /share/in.txt >/share/seen.txt && insmod /share/syncdev.ko && dmesg | grep "syncdev: loaded" >/share/dmesg.txt && rmmod syncdev' \
	>"$tmp/vm.log" 2>&1
check_equal "vm-run --share: the guest's command succeeded" "$?" 0
check_equal "--share, host -> guest" "$(cat "$tmp/share/seen.txt" 2>/dev/null)" "from the host"
check_output "the DKMS-built module loads in the guest (--share, guest -> host)" \
	'syncdev: loaded: port 2325' cat "$tmp/share/dmesg.txt"

check "dkms remove --all" dk remove -m syncdev -v "$ver" --all
check_equal "dkms remove leaves no module installed" "$(find "$tmp/inst" -name 'syncdev.ko*')" ""
check_equal "dkms status: nothing left" "$(dk status 2>/dev/null)" ""
finish
