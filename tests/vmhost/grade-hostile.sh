#!/bin/sh
# scripts/grade/grade --batch on a hostile class, for real (boots guests):
# one submission per attack on the grader, graded as root and again as an
# ordinary user.  Nothing outside each student's own output may be read or
# written (canaries in the TA's home and in another student's folder), no
# forging student may score above what its honest work earns (nothing:
# 0.0), every attack's student gets a verdict that names what happened, and
# the class summary is complete.
. tests/lib.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; userdel syncdev-ta 2>/dev/null' EXIT
chmod 755 "$tmp"
ta=$tmp/ta-home
sub=$tmp/class
mkdir -p "$ta/.ssh" "$sub"
echo "TA-SECRET-KEY-$$" >"$ta/.ssh/id_rsa"
echo "# the TA's shell start-up file" >"$ta/.bashrc"
chmod 600 "$ta/.ssh/id_rsa"
canaries="$ta/.ssh/id_rsa $ta/.bashrc"

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
# script_ours NAME SIDE TEXT: the same, with our SIDE program after the
# script's last line, which TEXT runs as "ours" (a program under test
# reaches nothing of the guest's own programs).
script_ours() {
	{
		printf '#!/bin/sh\nours=/tmp/ours-%s\n' "$2"
		# shellcheck disable=SC2016 # the script's own words
		printf '%s\n' 'skip=$(sed -n "1,/^# ours follows$/p" "$0" | wc -c)' \
			'tail -c +$((skip + 1)) "$0" >"$ours" && chmod +x "$ours" || exit 126'
		printf '%s\n# ours follows\n' "$3"
		cat "build/$2"
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
# way it might find them, and a slave that does nothing.
student q-master-writes
script q-master-writes master 'for d in /tmp/grade/slave/out /proc/[0-9]*/cwd /share/results/1vm/4097.mmap-mmap.files; do
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
# helps (in the one-guest boot: one stall is enough to show).
student l-hang
script l-hang master '[ -n "$SYNCDEV_ROLE" ] && exit 1; kill -STOP -1; sleep 100000'
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
printf "\033[2J\140\140\140<b>bold</b>\n"; exit 1'
# A folder that is a link to somewhere else on the TA's machine.
mkdir -p "$ta/stolen"
cp build/master build/slave "$ta/stolen/"
ln -s "$ta/stolen" "$sub/p-linked"
# A folder with the name of the grader's own work directory.
student work
for c in $canaries; do sha256sum "$c"; done >"$tmp/canaries.sum"
cp "$sub/a-honest/master" "$tmp/a-honest-master"

# grade_class OUT VMS [RUNNER...]: the class graded into OUT.
grade_class() {
	out=$1 vms=$2
	shift 2
	"$@" scripts/grade/grade --batch "$sub" --out "$out" --vms "$vms" --data 4097 \
		--methods mmap-mmap --timeout 5 --jobs 2 >"$out.log" 2>&1
}

# check_class LABEL OUT VMS: the checks of one graded class.
check_class() {
	l=$1 out=$2 vms=$3
	check_equal "$l: the canaries in the TA's home are untouched" \
		"$(for c in $canaries; do sha256sum "$c"; done)" "$(cat "$tmp/canaries.sum")"
	check_equal "$l: another student's folder is untouched" \
		"$(ls "$sub/a-honest" | paste -sd ' ')" "master slave"
	check "$l: no Kbuild line ran outside the sandbox" test ! -e "$sub/a-honest/kbuild-key"
	check "$l: no file of the grade names the TA's key" \
		sh -c "! grep -rqs TA-SECRET-KEY '$out'"
	check_equal "$l: the summary has every student" \
		"$(tail -n +2 "$out/summary.csv" | cut -d, -f1 | sort | paste -sd ' ')" \
		"a-honest b-kbuild c-incbin d-devzero e-linkko f-linkcli g-plant h-forge i-copier j-kmsg k-oops l-hang m-csv n-flood o-escape p-linked q-master-writes work"
	score() {
		awk -F, -v s="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "score") c = i }
			$1 == s { print $c }' "$out/summary.csv"
	}
	check_equal "$l: the honest student scores 100" "$(score a-honest)" 100.0
	for s in h-forge i-copier j-kmsg q-master-writes; do
		check_equal "$l: forging student $s scores 0" "$(score "$s")" 0.0
	done
	check_reasons "$l" "$out"
	check_texts "$l" "$out"
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
}

# check_texts LABEL OUT: what a guest or a name wrote is text everywhere.
check_texts() {
	l=$1 out=$2
	check "$l: no escape sequence in any text the grade wrote" \
		sh -c "! grep -rlq \"\$(printf '\\033')\" --include='*.log' --include='*.md' \
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

# The two grades run side by side: much of each is waiting (a stalled
# guest, builds that break their limits).
userdel syncdev-ta 2>/dev/null
useradd --no-create-home --home-dir "$ta" --shell /bin/sh syncdev-ta
chown -R syncdev-ta: "$ta"
mkdir -p "$tmp/user-vm"
chown syncdev-ta: "$tmp/user-vm" "$tmp"
# The ordinary user runs the grader from this clone, which must be
# readable by everyone (a clone inside a private home is not).
as_ta() { setpriv --reuid syncdev-ta --regid syncdev-ta --clear-groups "$@"; }
user_pass=1
as_ta test -r scripts/grade/grade -a -x build/gradeclass || user_pass=0
grade_class "$tmp/root" both &
root_pass=$!
[ "$user_pass" = 0 ] || grade_class "$tmp/user" 1 as_ta \
	env HOME="$ta" SYNCDEV_VM_DIR="$tmp/user-vm"
wait $root_pass
check_class "as root" "$tmp/root" both
check_output "as root: QEMU ran as the grader's user" '^syncdev-grade:' getent passwd syncdev-grade
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
