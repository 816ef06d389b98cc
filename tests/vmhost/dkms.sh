#!/bin/sh
# DKMS as a distribution runs it when kernels are installed, on a machine
# with the headers of two kernels (Debian 12's 6.1 and the 6.12 LTS):
# `dkms add`, then `dkms autoinstall -k KERNEL` for each, as the kernel
# packages' postinst hook does; the module each built is loaded in a guest
# booting that kernel (through --share, which is checked both ways); then
# `dkms remove --all` leaves nothing.
#
# DKMS runs in a mount namespace of its own where /lib/modules and
# /var/lib/dkms are empty: a throwaway root that holds only the two
# kernels' module indexes and headers links, so the machine's own DKMS
# state and modules are never touched.
. tests/lib.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! command -v dkms >/dev/null; then
	fail "dkms" "dkms is not installed (scripts/deps installs it)"
	finish
fi
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' scripts/dkms/dkms.conf)
kits=""
for k in 6.1 6.12; do
	if kit=$(scripts/vm/vm-kernel "$k" 2>"$tmp/kit.err"); then
		kits="$kits $kit"
	else
		fail "kernel $k for DKMS" "scripts/vm/vm-kernel $k failed: $(tail -n 2 "$tmp/kit.err")"
	fi
done
# shellcheck disable=SC2086 # $kits: words counted on purpose
[ "$(echo $kits | wc -w)" = 2 ] || finish
check "make dkms-src copies the module's sources" \
	make -s dkms-src DKMS_SRC="$tmp/src/syncdev-$ver"
# What a build in this tree leaves (syncdev.mod.c, objects) is not a source.
check_equal "the DKMS tree: the tracked sources and dkms.conf, nothing else" \
	"$(cd "$tmp/src/syncdev-$ver" && find . -type f | sed 's#^\./##' | sort)" \
	"$( (git ls-files Kbuild kernel; echo dkms.conf) | sort)"

# The throwaway root: the kits' module indexes and headers under an empty
# /lib/modules; the script's output is checked below, outside it.
cat >"$tmp/in-root.sh" <<'EOF'
set -u
tmp=$1 ver=$2
shift 2
# Read before /lib/modules is covered: the host's own kernel lives there.
for kit; do
	rel=$(cat "$kit/release")
	mkdir -p "$tmp/idx/$rel"
	cp "$kit/root/lib/modules/$rel"/modules.* "$tmp/idx/$rel/"
	ln -s "$(readlink -f "$(cat "$kit/kdir")")" "$tmp/idx/$rel/build"
done
mount -t tmpfs tmpfs /lib/modules && mount -t tmpfs tmpfs /var/lib/dkms || exit 90
cp -a "$tmp/idx/." /lib/modules/
dk() { dkms --sourcetree "$tmp/src" "$@"; }
echo "== add"; dk add -m syncdev -v "$ver"; echo "rc $?"
for kit; do
	rel=$(cat "$kit/release")
	echo "== autoinstall $rel"; dk autoinstall -k "$rel"; echo "rc $?"
	mkdir -p "$tmp/ko/$rel"
	cp "/lib/modules/$rel/updates/dkms/syncdev.ko"* "$tmp/ko/$rel/" 2>/dev/null
done
echo "== status"; dk status
echo "== remove"; dk remove -m syncdev -v "$ver" --all; echo "rc $?"
echo "== left"; find /lib/modules /var/lib/dkms -name 'syncdev*'
echo "== status after"; dk status
EOF
# shellcheck disable=SC2086
unshare -m --propagation private sh "$tmp/in-root.sh" "$tmp" "$ver" $kits >"$tmp/dkms.log" 2>&1
section() { sed -n "/^== $1\$/,/^== /p" "$tmp/dkms.log" | sed '1d;$d'; }
check_output "dkms add" '^rc 0$' section add
for kit in $kits; do
	rel=$(cat "$kit/release")
	name=$(basename "$kit" | cut -d- -f1)
	re=$(printf '%s' "$rel" | sed 's/[.+]/\\&/g')
	check_output "dkms autoinstall -k $rel builds and installs" '^rc 0$' section "autoinstall $rel"
	check_output "dkms status: installed for $rel" "^syncdev/$ver, $re, x86_64: installed" section status
	ko=$(ls "$tmp/ko/$rel"/syncdev.ko* 2>/dev/null | head -n 1)
	if [ -z "$ko" ]; then
		fail "the DKMS module for $rel loads in its guest" "no module installed (log: $(tail -n 5 "$tmp/dkms.log"))"
		continue
	fi
	check_output "the DKMS module for $rel is built for it" "^$re " modinfo -F vermagic "$ko"
	# Load it in a guest of that kernel; the guest writes back what it saw.
	rm -rf "$tmp/share" && mkdir -p "$tmp/share"
	cp "$ko" "$tmp/share/syncdev.ko"
	echo "from the host $rel" >"$tmp/share/in.txt"
	scripts/vm/vm-run --kernel "$kit" --share "$tmp/share" -- \
		'cat /share/in.txt >/share/seen.txt && insmod /share/syncdev.ko && dmesg | grep "syncdev: loaded" >/share/dmesg.txt && uname -r >/share/uname.txt && rmmod syncdev' \
		>"$tmp/vm.log" 2>&1
	check_equal "vm-run --share ($name): the guest's command succeeded" "$?" 0
	check_equal "--share ($name), host -> guest" "$(cat "$tmp/share/seen.txt" 2>/dev/null)" "from the host $rel"
	check_equal "the guest booted $rel" "$(cat "$tmp/share/uname.txt" 2>/dev/null)" "$rel"
	check_output "the DKMS module for $rel loads in its guest (--share, guest -> host)" \
		'syncdev: loaded: port 2325' cat "$tmp/share/dmesg.txt"
done
check_output "dkms remove --all" '^rc 0$' section remove
check_equal "dkms remove leaves no module and no DKMS state" "$(section left)" ""
check_equal "dkms status: nothing left" "$(section 'status after')" ""
finish
