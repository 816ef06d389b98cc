# shellcheck shell=sh
# Sourced by the guest's /init and scripts: the image's one module loader.
#
# insmod_order ORDER DIR: insmod DIR/KO for each KO that the file ORDER
# lists, in that order (scripts/vm/vm-build wrote it from modprobe's
# dependencies), skipping modules already loaded.  Modules may be
# compressed (KO.ko.xz): the name under /sys/module is the file's name up
# to ".ko", with '-' as '_'.  On a failure it says which module and why on
# stderr and returns 1.
insmod_order() {
	while read -r ko; do
		name=$(echo "${ko%%.ko*}" | tr - _)
		[ -d "/sys/module/$name" ] && continue
		err=$(insmod "$2/$ko" 2>&1) && continue
		case $err in
		# Loaded meanwhile (another script's load).
		*"File exists"*) ;;
		# An accelerated variant (crc32c-intel) refuses a CPU without
		# its instructions (TCG's): the generic one that follows serves.
		*"No such device"*) ;;
		*) echo "insmod $ko failed: $err" >&2; return 1 ;;
		esac
	done <"$1"
}
