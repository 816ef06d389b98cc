# shellcheck shell=bash disable=SC2154,SC2034
# Sourced by scripts/grade/grade: what the host gives a student's guests and
# what it decides itself, so that no guest can forge it.
#
#   STAGE/input/          read-only at /input in the one-guest boot and the
#                         master's guest: bin/, modules/, grade.conf, sets/
#                         and data/ (the data sets)
#   STAGE/input-slave/    the same without data/, for the slave's guest
#   STAGE/share-VMS[-ROLE]/  read-write at /share: what the guest reports
#   STAGE/results/VMS/    the host's copies of what it reports (read from the
#                         share by build/gradeclass share-read: no link is
#                         followed, nothing blocks, each file capped), and
#                         the host's own check of the outputs: CASE.bytes,
#                         CASE.sum; build/gradeclass student judges the rest
#   STAGE/want/SET        the data set's files: name, size, SHA-256
#
# The data are made on the host from a seed drawn per student and never
# written where a slave's guest can read it; the host compares the slave's
# output files with them after the guest is off, and reads kernel bugs from
# the serial console it captured itself (a guest cannot take back what it
# printed there).

# Caps on what a guest can make the host read or keep: a report file, and
# the console of one boot.
SHARE_READ_MAX=65536
CONSOLE_MAX=$((16 * 1024 * 1024))
SHARE_FILES_MAX=10000

# set_files SET: "NAME SIZE" of each file of a data set, in its order.
set_files() {
	local i=1 size
	case $1 in
	small)
		for size in 32 859 1343 1663 2042 3065 2808 4056 3659 4619; do
			echo "file$i $size"
			i=$((i + 1))
		done ;;
	large) echo "file1 12022885" ;;
	1M+1) echo "file1 1048577" ;;
	64M) echo "file1 67108864" ;;
	# Two of syncdev's 8 MiB buffers and a byte: larger than the device
	# buffer of any course module.
	big) echo "file1 16777217" ;;
	*) echo "file1 $1" ;;
	esac
}

# stage_data STAGE: the data sets of this run, from a seed drawn now.
stage_data() {
	local stage=$1 set name size seed d
	seed=$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')
	mkdir -p "$stage/input/sets" "$stage/want"
	for set in $data; do
		d=$stage/input/data/$set
		mkdir -p "$d"
		set_files "$set" >"$stage/input/sets/$set"
		while read -r name size; do
			seed=$(((seed + 1) & 0x7fffffffffffffff))
			gendata "$size" "$seed" >"$d/$name" || return 1
			echo "$name $size $(sha256sum <"$d/$name" | cut -d ' ' -f 1)"
		done <"$stage/input/sets/$set" >"$stage/want/$set"
		concat_sum "$d" "$stage/want/$set" >"$stage/want/$set.sum"
	done
}

# concat_sum DIR WANT: the first 16 hex digits of SHA-256 of DIR's files
# named in WANT (a data set's "NAME SIZE SHA256" lines), in that order,
# concatenated: the checksum results.csv shows.
concat_sum() {
	(cd "$1" && awk '{ print $1 }' "$2" | xargs cat | sha256sum | cut -c 1-16)
}

# stage_slave_input STAGE: input-slave/, input/ without the data.
stage_slave_input() {
	local stage=$1 f
	rm -rf "$stage/input-slave"
	mkdir -p "$stage/input-slave"
	for f in bin modules sets grade.conf; do
		[ -e "$stage/input/$f" ] && cp -a "$stage/input/$f" "$stage/input-slave/"
	done
	return 0
}

# share_dirs VMS: the share directories of a boot (one per guest).
share_dirs() {
	case $1 in
	1vm) echo share-1vm ;;
	2vm) echo share-2vm-master share-2vm-slave ;;
	esac
}

# prepare_shares STAGE VMS: empty shares for a boot, owned by the user
# QEMU runs as.
prepare_shares() {
	local d
	for d in $(share_dirs "$2"); do
		rm -rf "${1:?}/$d"
		mkdir -p "$1/$d"
		[ -z "${SYNCDEV_QEMU_USER:-}" ] || chown "$SYNCDEV_QEMU_USER:" "$1/$d"
	done
}

# share_read SHARE PATH DEST [MAX]: copy a file the guest wrote, if it is
# a regular file; nothing (and status 1) otherwise.
share_read() {
	build/gradeclass share-read --max "${4:-$SHARE_READ_MAX}" "$1" "$2" >"$3" 2>/dev/null
	case $? in 0|3) return 0 ;; *) rm -f "$3"; return 1 ;; esac
}

# share_text SHARE PATH DEST: share_read for a text a TA may read or
# print: control characters but tab and newline dropped (no escape
# sequence reaches a terminal).
share_text() {
	share_read "$1" "$2" "$3.raw" || return 1
	# A CR ends a line as LF does; then every other C0 character but tab
	# and LF, DEL, and C1 (U+0080 to U+009F: CSI, NEL, ...) go.
	perl -pe 's/\r/\n/g; s/[\x00-\x08\x0b-\x1f\x7f]//g; s/\xc2[\x80-\x9f]//g' \
		<"$3.raw" >"$3"
	rm -f "$3.raw"
}

# import_boot STAGE VMS: after the boot, the host's copies of what its
# guest(s) reported, then the host's verdicts on the output files and the
# kernel log of each case.
import_boot() {
	local stage=$1 v=$2 set m c side share r=$1/results/$2
	rm -rf "$r"
	mkdir -p "$r"
	for set in $data; do
		for m in $methods; do
			c=$set.$m
			for side in master slave; do
				share=$stage/$(side_share "$v" "$side")
				# As written: build/gradeclass student parses them strictly.
				share_read "$share" "results/$v/$c.$side.res" "$r/$c.$side.res"
				share_text "$share" "results/$v/$c.$side.out" "$r/$c.$side.out"
				if [ "$v" = 2vm ]; then
					share_text "$share" "results/$v/$c.$side.klog" "$r/$c.$side.klog"
				fi
			done
			[ "$v" = 2vm ] || share_text "$stage/share-1vm" "results/$v/$c.klog" "$r/$c.klog"
			build/gradeclass verify-outputs "$stage/$(side_share "$v" slave)" \
				"results/$v/$c.files" "$stage/want/$set" "$stage/input/data/$set" \
				"$r/$c.sum" >"$r/$c.bytes" || rm -f "$r/$c.bytes"
		done
	done
	for side in $(guest_names "$v"); do
		share=$stage/$(side_share "$v" "${side/vm/master}")
		share_text "$share" "results/$v/aborted.$side" "$r/aborted.$side"
		share_text "$share" "results/$v/unload.$side" "$r/unload.$side"
	done
	share_usage "$stage" "$v" >"$r/share-usage"
	for share in $(share_dirs "$v"); do rm -rf "${stage:?}/$share"; done
}

# guest_names VMS: how the guests of a boot name their files.
guest_names() {
	case $1 in 1vm) echo vm ;; 2vm) echo master slave ;; esac
}

# side_share VMS SIDE: the share the guest of SIDE wrote.
side_share() {
	case $1:$2 in
	1vm:*) echo share-1vm ;;
	2vm:master) echo share-2vm-master ;;
	2vm:slave) echo share-2vm-slave ;;
	esac
}

# share_usage STAGE VMS [--inodes]: the bytes (or the files) the boot's
# guests wrote to their shares.
share_usage() {
	local d total=0 n
	for d in $(share_dirs "$2"); do
		n=$(du -s "${3:--b}" "$1/$d" 2>/dev/null | cut -f 1)
		total=$((total + ${n:-0}))
	done
	echo "$total"
}

# share_limit: the bytes a boot's guests may write to their shares: every
# data set's output of every case twice over, and 64 MiB for the reports.
share_limit() {
	local set name size total=0
	for set in $data; do
		while read -r name size; do
			total=$((total + size))
		done < <(set_files "$set")
	done
	echo $((total * $(wc -w <<<"$methods") * 2 + 64 * 1024 * 1024))
}
