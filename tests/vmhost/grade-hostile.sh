#!/bin/bash
# scripts/grade/grade --batch on a hostile class, for real (boots guests):
# one submission per attack on the grader, graded as root and again as an
# ordinary user.  Nothing outside each student's own output may be read or
# written (canaries in the TA's home and in another student's folder), no
# forging student may score above what its honest work earns (nothing:
# 0.0), every attack's student gets a verdict that names what happened, and
# the class summary is complete.  The table "The hostile class" of
# docs/grading-trust.md numbers the attacks 1 to 10 and names each one's
# student (here) or test (elsewhere) and check.  As root the
# class is graded the README's way (--out in a 0700 home) while a process
# of QEMU's user plants links and a root PID where it can (attack 8); then
# --report-only writes the reports again from what the guests left.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. tests/lib.sh

tmp=$(mktemp -d)
victim=""
trap 'rm -rf "$tmp"; userdel syncdev-ta 2>/dev/null; [ -z "$victim" ] || kill "$victim" 2>/dev/null' EXIT
chmod 755 "$tmp"
ta=$tmp/ta-home
sub=$tmp/class
mkdir -p "$ta/.ssh" "$sub"
echo "TA-SECRET-KEY-$$" >"$ta/.ssh/id_rsa"
echo "# the TA's shell start-up file" >"$ta/.bashrc"
chmod 600 "$ta/.ssh/id_rsa"
# The TA's own master, above the class (attack 2), and root's mode-600
# files of the names a forged case would write (attack 1).
cp build/master "$ta/master"
cp build/master "$tmp/master"
mkdir -p "$tmp/canary/1vm" "$tmp/canary/2vm"
for f in 4097.mmap-mmap.master.kernel 4097.mmap-mmap.slave.kernel 4097.mmap-mmap.master.res \
	1vm/4097.mmap-mmap.master.kernel 2vm/4097.mmap-mmap.master.kernel; do
	echo "root's canary $f" >"$tmp/canary/$f"
	chmod 600 "$tmp/canary/$f"
done
canaries="$ta/.ssh/id_rsa $ta/.bashrc $ta/master $tmp/master $(find "$tmp/canary" -type f | sort | paste -sd ' ')"

# student NAME: a folder with our programs, to start from.
student() {
	mkdir -p "$sub/$1"
	cp build/master build/slave "$sub/$1/"
}
# script NAME SIDE TEXT: the student's SIDE program is a shell script.
script() {
	printf '#!/bin/sh\n%s\n' "$3" >"$sub/$1/$2"
	chmod +x "$sub/$1/$2"
}
# script_ours NAME SIDE TEXT [PROGRAM]: the same, with our SIDE program
# (or build/PROGRAM) after the script's last line, which TEXT runs as
# "ours" (a program under test reaches nothing of the guest's own
# programs).
script_ours() {
	{
		printf '#!/bin/sh\nours=/tmp/ours-%s\n' "$2"
		# shellcheck disable=SC2016 # the script's own words
		printf '%s\n' 'skip=$(sed "/^# ours follows$/q" "$0" | wc -c)' \
			'tail -c +$((skip + 1)) "$0" >"$ours" && chmod +x "$ours" || exit 126'
		printf '%s\n# ours follows\n' "$3"
		cat "build/${4:-$2}"
	} >"$sub/$1/$2"
	chmod +x "$sub/$1/$2"
}

student a-honest
# A Kbuild line that runs a shell command at build time.
student b-kbuild
mkdir -p "$sub/b-kbuild/module"
cp tests/grade/oops-module/oopsy.c "$sub/b-kbuild/module/hello.c"
sed -i 's/kthread_run(oopsy_thread, NULL, "oopsy")/NULL/' "$sub/b-kbuild/module/hello.c"
printf 'obj-m := hello.o\nX := $(shell id -u >%s/kbuild-uid; echo pwned >>%s/.bashrc; cat %s/.ssh/id_rsa >%s/kbuild-key)\n' \
	"$tmp" "$ta" "$ta" "$sub/a-honest" >"$sub/b-kbuild/module/Kbuild"
# A program that embeds a host file, and one that includes /dev/zero.
student c-incbin
rm "$sub/c-incbin/master"
printf '__asm__(".incbin \\"%s/.ssh/id_rsa\\"");\nint main(void) { return 0; }\n' "$ta" >"$sub/c-incbin/master.c"
student d-devzero
rm "$sub/d-devzero/master"
printf '#include "/dev/zero"\nint main(void) { return 0; }\n' >"$sub/d-devzero/master.c"
# Links where a module and the command-line file would be.
student e-linkko
ln -s "$ta/.ssh/id_rsa" "$sub/e-linkko/syncdev.ko"
student f-linkcli
ln -s "$ta/.ssh/id_rsa" "$sub/f-linkcli/grade.cli"
# A slave that plants links and FIFOs in the shared directory, then works.
student g-plant
script_ours g-plant slave "for d in /share /share/results /share/results/1vm /share/results/2vm; do
	mkdir -p \$d
	ln -s $ta/.bashrc \$d/link-bashrc; ln -s $ta/.ssh/id_rsa \$d/info
	mkfifo \$d/first \$d/counts
	for c in 4097.mmap-mmap; do ln -s $ta/.bashrc \$d/\$c.master.res; mkfifo \$d/\$c.master.out; done
done
ln -s $ta/.ssh/id_rsa /share/results/1vm/4097.mmap-mmap.files 2>/dev/null
exec \"\$ours\" \"\$@\""
# Forged results: every case passed, with made-up output files.
student h-forge
script h-forge master 'echo "Transmission time: 1.0 ms, File size: 4097 bytes"'
script h-forge slave 'for v in 1vm 2vm; do for s in master slave; do
	printf "status=pass\ncheck=bytes\ncheck=exits\ncheck=time_line\ncheck=pages\ncheck=kernel_log\nrc=0\ntime=Transmission time: 1.0 ms, File size: 4097 bytes\npages=3\n" >/share/results/$v/4097.mmap-mmap.$s.res
done; mkdir -p /share/results/$v/4097.mmap-mmap.files; head -c 4097 /dev/urandom >/share/results/$v/4097.mmap-mmap.files/file1; done
head -c 4097 /dev/urandom >file1
echo "Transmission time: 1.0 ms, File size: 4097 bytes"'
# A slave that copies the master's input instead of receiving it.
student i-copier
script i-copier master 'echo "Transmission time: 1.0 ms, File size: 4097 bytes"; sleep 3'
script i-copier slave 'sleep 1
for f in /tmp/grade/data/*/* /input/data/*/* /proc/[0-9]*/root/tmp/grade/data/*/*; do [ -f "$f" ] && cp "$f" .; done
for p in /proc/[0-9]*; do nsenter -t ${p#/proc/} -m cat /tmp/grade/data/4097/file1 >file1 2>/dev/null && break; done
echo "Transmission time: 1.0 ms, File size: 4097 bytes"'
# A master that writes the slave's output files itself, through every
# way it might find them (renaming the harness's /tmp/grade first), and a
# slave that does nothing (attack 5).
student q-master-writes
script q-master-writes master 'mv /tmp/grade /tmp/gone 2>/dev/null
for d in /tmp/grade/slave/out /proc/[0-9]*/cwd /share/results/1vm/4097.mmap-mmap.files; do
	mkdir -p "$d" 2>/dev/null; cp "$2" "$d/file1" 2>/dev/null
done
echo "Transmission time: 1.0 ms, File size: 4097 bytes"'
script q-master-writes slave 'sleep 2; echo "Transmission time: 1.0 ms, File size: 4097 bytes"'
# Page-descriptor lines written by a program, not the kernel.
student j-kmsg
script j-kmsg master 'echo "syncdev: master#1: page vaddr=0x1000 pfn=0x1 pte=0x1" >/dev/kmsg; echo "Transmission time: 1.0 ms, File size: 4097 bytes"'
script j-kmsg slave 'echo "syncdev: slave#1: page vaddr=0x1000 pfn=0x1 pte=0x1" >/dev/kmsg; echo "Transmission time: 1.0 ms, File size: 4097 bytes"'
# A module that oopses, and programs that clear the kernel log.
student k-oops
cp -r tests/grade/oops-module "$sub/k-oops/module"
script k-oops master 'dmesg -c >/dev/null; echo 1 >/proc/sys/kernel/printk; dmesg -c >/dev/null'
script k-oops slave 'dmesg -c >/dev/null'
# A master that stops everything in its guest, where no in-guest limit
# helps, then prints fake progress every second wherever it can (attack
# 10; in the one-guest boot: one stall is enough to show).
student l-hang
script l-hang master '[ -n "$SYNCDEV_ROLE" ] && exit 1; kill -STOP -1
while :; do
	for t in /dev/console /dev/kmsg /dev/ttyS0 /dev/ttyS1 /dev/hvc0 /proc/self/fd/1; do
		printf "syncdev-vm: test grade/1vm/4097.mmap-mmap\\nsyncdev-grade: case 1vm/4097.mmap-mmap begins\\nrun 1 2\\n" >$t
	done 2>/dev/null
	sleep 1
done'
# Spreadsheet formulas and a bare CR in what the grader quotes.
student m-csv
script m-csv master 'printf "=HYPERLINK(\"http://example.invalid\",\"x\")\r\nx,student,1\r=1+1\n"; exit 1'
# A slave that would flood the shared directory, which it cannot reach.
student n-flood
script_ours n-flood slave 'for i in 1 2 3 4 5 6 7 8; do dd if=/dev/zero of=/share/flood$i bs=1M count=400 2>/dev/null; done
exec "$ours" "$@"'
# Terminal escape sequences and markup where the TA reads: the console,
# the kernel log and the program's output.
student o-escape
script o-escape master 'printf "\033]0;pwned\007\033[2J<script>x</script>\n" >/dev/console
printf "<img src=x> \140\140\140 \033[31m\n" >/dev/kmsg
printf "\033[2J\140\140\140<b>bold</b> \302\233\062J \302\205 ![i](http://e.invalid/i.png) [l](javascript:alert(1))\n"; exit 1'
printf 'master master {n} {files} {method} ![x](javascript:y) <b>cli</b>\n' >"$sub/o-escape/grade.cli"
# A folder that is a link to somewhere else on the TA's machine.
mkdir -p "$ta/stolen"
cp build/master build/slave "$ta/stolen/"
ln -s "$ta/stolen" "$sub/p-linked"
# A folder with the name of the grader's own work directory.
student work
# Attacks 1 and 7: forged case marks whose case name climbs out of the
# grade (to root's mode-600 canaries, to another student's files), each
# with a warning after it, everywhere a program might print; "=x"
# appended to every result file a program might find, and printed; then
# an honest transfer, which earns 100.
up=$(printf '../%.0s' $(seq 16))
forge="for c in 1vm/$up${tmp#/}/canary/4097.mmap-mmap 1vm/../../a-honest/4097.mmap-mmap \
	2vm/../../../a-honest/1vm/4097.mmap-mmap 1vm/../../../../canary/4097.mmap-mmap; do
	for t in /dev/kmsg /dev/console /dev/ttyS0 /dev/ttyS1 /dev/hvc0 /proc/self/fd/1 /proc/self/fd/2; do
		printf '<4>syncdev-grade: case %s begins\nsyncdev-vm: test grade/%s\nWARNING: CPU: 0 PID: 1 at forged+0x0/0x0\n' \"\$c\" \"\$c\" >\$t
	done 2>/dev/null
done"
forge="$forge
for f in /share/results/*/* /mnt/share/results/*/* /tmp/grade/*/*.res /tmp/grade/case/*; do
	echo =x >>\"\$f\"
done 2>/dev/null
printf '=x\\nend=1\\n=x\\n'"
student r-forges
script_ours r-forges master "$forge
exec \"\$ours\" \"\$@\""
script_ours r-forges slave "$forge
exec \"\$ours\" \"\$@\""
# Attack 2: no program, and folders whose names hold a newline and a
# depth-like prefix pointing at the grader's build/master and at the
# master above the class.
mkdir -p "$sub/s-empty/x"$'\n'"0 build" "$sub/s-empty/x"$'\n'"0 .."
# Attack 3: a syncdev.ko that warns on every open, and programs that
# forge a case mark and progress and lower the console's log level
# before an honest transfer.
mkdir -p "$sub/t-warn/module"
git ls-files -z kernel | xargs -0 tar cf - | tar xf - -C "$sub/t-warn/module" --strip-components 1
sed -i 's/^\(\ts = kzalloc_obj(\*s);\)$/\tWARN(1, "t-warn: open\\n");\n\1/' "$sub/t-warn/module/session.c"
hide='dmesg -n 1 2>/dev/null; echo 1 >/proc/sys/kernel/printk 2>/dev/null
echo "<4>syncdev-grade: case 1vm/0.mmap-mmap begins" >/dev/kmsg 2>/dev/null
echo "syncdev-vm: test grade/1vm/0.mmap-mmap" >/dev/console 2>/dev/null'
script_ours t-warn master "$hide
exec \"\$ours\" \"\$@\""
script_ours t-warn slave "$hide
exec \"\$ours\" \"\$@\""
# Attack 4: the guest's reference programs.
student u-optmaster
script u-optmaster master 'exec /opt/syncdev/build/master "$@"'
script u-optmaster slave 'exec /opt/syncdev/build/slave "$@"'
# Attack 6: around the device: its own tcpcopy over plain TCP.
student v-tcp
script_ours v-tcp master 'n=$1; shift
"$ours" send "$1" -p 2400 || exit 1
echo "Transmission time: 1.0 ms, File size: 4097 bytes"' tcpcopy
script_ours v-tcp slave 'ip=$4
"$ours" recv "$ip:2400" "$2" -w 30000 || exit 1
echo "Transmission time: 1.0 ms, File size: 4097 bytes"' tcpcopy
# Attack 9: a folder "a-honest<newline>" beside a-honest (with programs
# that fail) and names with ESC, BEL and C1.
for n in "a-honest"$'\n' "x-esc"$'\033'"]0;pwned"$'\007' "x-csi"$'\302\233'"2J" "x-nel"$'\302\205'; do
	mkdir -p "$sub/$n"
	printf '#!/bin/sh\nexit 1\n' >"$sub/$n/master"
	cp "$sub/$n/master" "$sub/$n/slave"
	chmod +x "$sub/$n/master" "$sub/$n/slave"
done
students="a-honest b-kbuild c-incbin d-devzero e-linkko f-linkcli g-plant h-forge i-copier"
students="$students j-kmsg k-oops l-hang m-csv n-flood o-escape p-linked q-master-writes"
students="$students r-forges s-empty t-warn u-optmaster v-tcp work"
# canaries: each canary's checksum, owner and mode; the class's listing.
canaries() {
	for c in $canaries; do printf '%s %s\n' "$(sha256sum "$c")" "$(stat -c '%U %a' "$c")"; done
	find "$tmp/canary" "$sub" | LC_ALL=C sort | sha256sum
}

# grade_class OUT VMS [RUNNER...]: the class graded into OUT.
grade_class() {
	out=$1 vms=$2
	shift 2
	"$@" scripts/grade/grade --batch "$sub" --out "$out" --vms "$vms" --data 4097 \
		--methods mmap-mmap --timeout 5 --jobs 2 "${extra[@]}" >"$out.log" 2>&1
}
extra=()

# check_class LABEL OUT VMS: the checks of one graded class.
check_class() {
	l=$1 out=$2 vms=$3
	check_equal "$l: the canaries (the TA's home, root's mode-600 files, the class) are untouched" \
		"$(canaries)" "$(cat "$tmp/canaries.sum")"
	check_equal "$l: another student's folder is untouched" \
		"$(ls "$sub/a-honest" | paste -sd ' ')" "master slave"
	check "$l: no Kbuild line ran outside the sandbox" test ! -e "$sub/a-honest/kbuild-key"
	check "$l: no file of the grade names the TA's key" \
		sh -c "! grep -rqs TA-SECRET-KEY '$out'"
	check_equal "$l: the summary has every student" \
		"$(tail -n +2 "$out/summary.csv" | cut -d, -f1 | sort | paste -sd ' ')" \
		"$students"
	check_equal "$l: one row a student (no phantom or doubled row)" \
		"$(tail -n +2 "$out/summary.csv" | cut -d, -f1 | sort | uniq -d)" ""
	check_scores "$l" "$out"
	check_reasons "$l" "$out"
	check_texts "$l" "$out"
	check_equal "$l: no stat error from the KVM probe" \
		"$(grep -c 'cannot statx' "$out.log")" 0
}

# score OUT STUDENT: STUDENT's score in OUT's summary.
score() {
	awk -F, -v s="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "score") c = i }
		$1 == s { print $c }' "$1/summary.csv"
}

# check_scores LABEL OUT: what each attack earns: an honest transfer
# behind the attack 100, a forged or absent one nothing.
check_scores() {
	l=$1 out=$2
	for s in a-honest r-forges; do
		check_equal "$l: $s scores 100 (its transfer is honest)" "$(score "$out" "$s")" 100.0
	done
	for s in h-forge i-copier j-kmsg q-master-writes s-empty t-warn u-optmaster v-tcp l-hang; do
		check_equal "$l: attacking student $s scores 0" "$(score "$out" "$s")" 0.0
	done
}

# check_reasons LABEL OUT: each attacking student's verdict names what it did.
check_reasons() {
	l=$1 out=$2
	reason() { grep -h "^$1,1," "$out/$1/results.csv" | head -n 1; }
	check_output "$l: the incbin build fails in the sandbox" 'master build failed' reason c-incbin
	check_output "$l: the /dev/zero include ends at a limit" 'limit' reason d-devzero
	check_output "$l: a linked module is refused" 'symbolic link' reason e-linkko
	check_output "$l: a linked grade.cli is refused" 'symbolic link' reason f-linkcli
	check_output "$l: the planting student's transfer still passes" ',pass,' reason g-plant
	check_output "$l: forged results fail on the host's byte check" 'slave: (missing|wrong) output file1' reason h-forge
	check_output "$l: a copying slave fails" 'slave: (missing|wrong) output file1' reason i-copier
	check_output "$l: a master that writes the outputs fails" 'slave: (missing|wrong) output file1' reason q-master-writes
	check_output "$l: kmsg page lines are not the kernel's" 'no page-descriptor line' reason j-kmsg
	check_output "$l: an oops cleared from dmesg is still seen" 'kernel log: .*(Oops|BUG)' reason k-oops
	check_output "$l: the hang is named" 'hung' reason l-hang
	check_output "$l: the flood cannot reach the shared directory: its transfer passes" ',pass,' reason n-flood
	check_output "$l: a linked folder is refused" 'folder p-linked is a symbolic link' reason p-linked
	check_output "$l: no master in a submission of folders only" 'no master program' reason s-empty
	check_output "$l: the warnings on open are the student's, hidden or not" \
		'kernel log: .*WARNING' reason t-warn
	check_output "$l: the guest's reference master is out of reach (it never printed its time)" \
		"master: no 'Transmission time' line" reason u-optmaster
	check_equal "$l: plain TCP: the slave's file is right (the attack ran)" \
		"$(reason v-tcp | grep -c 'output file')" 0
	check_output "$l: plain TCP: the data did not cross syncdev.ko" \
		'did not cross syncdev.ko' reason v-tcp
	check_output "$l: the stall names the host's case, whatever the guest printed" \
		'hung: case 1 of 1 made no progress' reason l-hang
}

# check_texts LABEL OUT: what a guest or a name wrote is text everywhere.
check_texts() {
	l=$1 out=$2
	check "$l: no escape sequence, BEL or C1 in any text the grade wrote" \
		sh -c "! LC_ALL=C grep -rlq \"\$(printf '[\\033\\007]\\|\\302[\\200-\\237]')\" --include='*.log' --include='*.md' \
			--include='*.csv' --include='*.html' --include='*.out' --include='*.klog' \
			--include='*.res' --include='*.kernel' --include='*.bytes' '$out' '$out.log'"
	check "$l: no markup from a guest in any report.md, but in code blocks" \
		sh -c "! find '$out' -name report.md -exec awk '/^ *\\140\\140\\140/ { f = !f; next } !f' {} + |
			grep -qE '<(script|img|b)'"
	check_output "$l: the escaping student's output is shown as text" \
		'^  - .*&lt;b&gt;bold&lt;/b&gt;' cat "$out/o-escape/report.md"
	check_output "$l: the folder named work is refused" '^work,.*refused.*class.s output folder uses' cat "$out/summary.csv"
	check "$l: the grader's work directory survives the student named work" test -d "$out/work/a-honest"
	check "$l: every CSV parses with one row per case or student and no formula" \
		python3 - "$out" <<'EOF'
import csv, glob, sys
for path in glob.glob(sys.argv[1] + "/**/*.csv", recursive=True):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    for row in rows[1:]:
        for cell in row:
            if cell[:1] in ("=", "+", "@", "\t", "\r") or (cell[:1] == "-" and not cell[1:].replace(".", "").isdigit()):
                sys.exit(f"{path}: cell {cell!r} is not neutralised")
EOF
}

# attack8 DIR: as QEMU's user (what an escaped QEMU would be), every 0.1 s
# in each directory under DIR (tests/tools/plant-links): vm-run's, the
# watcher's and the grader's files replaced by links to a root-owned
# canary, and the PID of a root process as qemu.pid; what it managed in
# DIR/got.
attack8() {
	echo "root's canary" >"$tmp/root-canary"
	chmod 600 "$tmp/root-canary"
	sleep 3600 &
	victim=$!
	cp tests/tools/plant-links "$tmp/attack8"
	chmod 755 "$tmp/attack8"
	setpriv --reuid syncdev-grade --regid syncdev-grade --clear-groups sh "$tmp/attack8" \
		"$1" "$tmp/root-canary" "$victim" qemu.rc hung qemu.pid 1vm.log 1vm.control \
		stalled.1vm counts &
	attacker=$!
}

# The two grades run side by side: much of each is waiting (a stalled
# guest, builds that break their limits).  As root: the README's way, --out
# in a home only root can enter, its TMPDIR where the attacker of attack 8
# looks.
getent passwd syncdev-grade >/dev/null ||
	useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin syncdev-grade
mkdir -m 700 "$tmp/root-home"
mkdir -m 1777 "$tmp/t"
attack8 "$tmp/t"
userdel syncdev-ta 2>/dev/null
useradd --no-create-home --home-dir "$ta" --shell /bin/sh syncdev-ta
chown -R syncdev-ta: "$ta"
mkdir -p "$tmp/user-vm"
chown syncdev-ta: "$tmp/user-vm" "$tmp"
canaries >"$tmp/canaries.sum"
# The ordinary user runs the grader from this clone, which must be
# readable by everyone (a clone inside a private home is not).
as_ta() { setpriv --reuid syncdev-ta --regid syncdev-ta --clear-groups "$@"; }
user_pass=1
as_ta test -r scripts/grade/grade -a -x build/gradeclass || user_pass=0
root=$tmp/root-home/grading
TMPDIR=$tmp/t grade_class "$root" both &
root_pass=$!
[ "$user_pass" = 0 ] || grade_class "$tmp/user" 1 as_ta \
	env HOME="$ta" SYNCDEV_VM_DIR="$tmp/user-vm"
wait $root_pass
: >"$tmp/t/stop"
wait "$attacker"
check_class "as root" "$root" both
check_output "as root: QEMU ran as the grader's user" '^syncdev-grade:' getent passwd syncdev-grade
check_equal "as root: the README's --out in a 0700 home: no error entering it" \
	"$(grep -c 'cannot enter' "$root.log")" 0
check_equal "attack 8: root's canary is untouched" "$(cat "$tmp/root-canary")" "root's canary"
check "attack 8: the root process whose PID was planted lives" kill -0 "$victim"
check_equal "attack 8: no link or PID planted in a directory of the grader's" \
	"$(grep -E '/syncdev-(run|ctl|grade)\.[^/]*/[^/]*$' "$tmp/t/got" 2>/dev/null | head -n 3)" ""
# Attack 1 (the forged verdict on --report-only): the reports written again
# from what the guests left give every student the same score.
scores() { for s in $students; do echo "$s $(score "$root" "$s")"; done; }
scores >"$tmp/scores.before"
extra=(--report-only)
TMPDIR=$tmp/t grade_class "$root" both
extra=()
check_equal "as root: --report-only gives every student the same score" \
	"$(scores)" "$(cat "$tmp/scores.before")"
check_equal "as root: --report-only: the honest student scores 100" "$(score "$root" a-honest)" 100.0
if [ "$user_pass" = 1 ]; then
	check_class "as an ordinary user" "$tmp/user" 1
else
	echo "grade-hostile: $PWD is not readable by an ordinary user: the grade as one is not run"
fi
# A stalled guest is stopped, not left behind: no runner or QEMU of the
# class's outlives its grade (the stop may take the runner a few seconds).
i=0
while pgrep -f -- "$tmp/" >/dev/null && [ $i -lt 30 ]; do
	sleep 1
	i=$((i + 1))
done
check_equal "no guest or runner of the class outlives its grade" \
	"$(pgrep -af -- "$tmp/" | cut -c 1-120)" ""
finish
