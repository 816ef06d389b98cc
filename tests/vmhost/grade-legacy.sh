#!/bin/sh
# scripts/grade/grade on programs written for the course's modules, graded
# with syncdev.ko as the course would (docs/legacy.md), one 1vm boot each
# (small, mmap-mmap): a master and slave that ask for their page dump with
# no address (a garbage one, nothing mapped there) pass pages, from the
# "nothing mapped there" lines alone; a slave written against the 2020
# starter's read() (course_padded: the last read() of a padded 512-byte
# chunk asks for the bytes left) gets every file right under a rubric
# with "legacy_read starter" (under fill its copies go wrong:
# tests/vm/20-legacy.sh), and, never asking for a page dump, fails pages.
. tests/lib.sh

tmp=$(mktemp -d)
# Run as root, the grader's QEMU runs as its own user, which must reach
# the outputs.
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
sub=$tmp/submissions
mkdir -p "$sub/a-garbage" "$sub/b-padded"
# with_client FIXTURE CLIENT OUT: a fixture script and, after it, the
# course client it runs (a program under test reaches nothing else).
with_client() {
	cat "$1" "build/tests/tools/$2" >"$3" && chmod +x "$3"
}
for p in master slave; do
	with_client "tests/grade/dump-garbage/$p" course_2page "$sub/a-garbage/$p"
	with_client "tests/grade/course-padded/$p" course_padded "$sub/b-padded/$p"
done
rubric=$tmp/starter.rubric
{ grep -v '^legacy_read ' scripts/grade/grade.rubric; echo "legacy_read starter"; } >"$rubric"
scripts/grade/grade --batch "$sub" --rubric "$rubric" --vms 1 --data small --methods mmap-mmap \
	--timeout 20 --jobs 1 --out "$tmp/out" >"$tmp/grade.log" 2>&1
check_equal "the class is graded (exit 1: b-padded asks for no page dump)" "$?" 1
check_output "the guest had legacy_read=starter from the rubric" '^GRADE_LEGACY_READ=starter$' \
	cat "$tmp/out/work/b-padded/input/grade.conf"

# row NAME: the student's one case in its results.csv.
row() { grep "^$1,1,small\.mmap-mmap," "$tmp/out/$1/results.csv"; }
check_output "a page dump with a garbage address after every file: every criterion passes" \
	'^a-garbage,1,small\.mmap-mmap,small,10,24146,mmap,mmap,pass,.*,pass,pass,pass,pass,pass$' row a-garbage
check_output "its kernel log: each side's 'nothing mapped there' lines" \
	'syncdev: slave#[0-9]+: page dump of 0x0: nothing mapped there' cat "$tmp/out/a-garbage/report.md"
check_equal "and no page descriptor line: the lines that say nothing is mapped passed pages" \
	"$(grep -c 'page vaddr=' "$tmp/out/a-garbage/report.md")" 0
check_output "the starter's 512-byte read() under legacy_read starter: the ten files right, no page dump" \
	'^b-padded,1,small\.mmap-mmap,small,10,24146,mmap,mmap,fail,.*,pass,pass,fail,fail,pass$' row b-padded
check_output "its pages fail: no page-descriptor line" \
	'no page-descriptor line in the kernel log' row b-padded
finish
