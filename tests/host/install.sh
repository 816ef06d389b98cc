#!/bin/sh
# Installing like an out-of-tree driver: make install/uninstall into a
# DESTDIR, the man pages and the udev rule (DKMS: tests/vmhost/dkms.sh).
. tests/lib.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- make install / uninstall -----------------------------------------
dest=$tmp/dest
check "make install DESTDIR=... PREFIX=/usr" make -s install DESTDIR="$dest" PREFIX=/usr
missing=""
for p in master slave tcpcopy osbench; do
	for f in "bin/$p" "share/man/man1/$p.1"; do
		[ -f "$dest/usr/$f" ] || missing="$missing $f"
	done
done
check_equal "make install: the four programs and their man pages" "$missing" ""
check_output "installed master runs" '^usage: master N' "$dest/usr/bin/master" --help
check_output "installed tcpcopy runs" '^usage: tcpcopy send' "$dest/usr/bin/tcpcopy" --help
check "make uninstall DESTDIR=... PREFIX=/usr" make -s uninstall DESTDIR="$dest" PREFIX=/usr
check_equal "make uninstall leaves no file behind" "$(find "$dest" ! -type d)" ""
check "make install-udev DESTDIR=..." make -s install-udev DESTDIR="$dest"
check_output "the udev rule gives group syncdev both devices, 0660" \
	'KERNEL=="slave_device", GROUP="syncdev", MODE="0660"' cat "$dest/etc/udev/rules.d/60-syncdev.rules"
check "make uninstall-udev" make -s uninstall-udev DESTDIR="$dest"
check_equal "make uninstall-udev leaves no file behind" "$(find "$dest" ! -type d)" ""

# --- man pages ----------------------------------------------------------
for p in master slave tcpcopy osbench; do
	warn=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "docs/man/$p.1" 2>&1)
	check_equal "docs/man/$p.1: groff -man -ww has no warning" "$warn" ""
	check_output "docs/man/$p.1 renders with man -l" "^NAME" \
		env MANWIDTH=80 man -l "docs/man/$p.1"
done

finish
