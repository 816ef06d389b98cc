#!/bin/sh
# osbench report --render on fixed, synthetic results
# (tests/host/report-fixture): the summary table's estimates, bases,
# ratios and "not measured" rows, the anomaly flags the fixture plants
# (a 3-argument call cheaper than a 0-argument one, 409600 O_SYNC writes/s
# on a rotational disk, tmpfs, a heavy-tailed spread, a falling read
# curve, estimates more than 10x off) and
# none for its clean figures, every section, methodology.md; the HTML is
# well formed (python3's html.parser, tags balanced) and carries every
# plot of the folder inline.  No measurement, no timing.
. tests/lib.sh

OSB=build/osbench
tmp=$(mktemp -d "${TMPDIR:-/tmp}/report_render.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
cp -r tests/host/report-fixture "$tmp/rep"
check "report --render exits 0" $OSB report --render --out "$tmp/rep"
md=$tmp/rep/report.md

for s in "Machine" "Summary" "Anomalies" "Micro-benchmarks" \
	"Local and remote file access" "Network" "I/O experiments" \
	"Device transfers"; do
	check_output "section: $s" "^## $s\$" cat "$md"
done
check_output "summary header" \
	"^\| Parameter \| Base hardware \| Software overhead \| Estimate \| Actual \(median\) \| Min \| Interval of the median \(n, confidence\) \| Actual / estimate \| Unit \| Basis of the estimate \|$" \
	cat "$md"
check_output "a cycle-model estimate, software only, and its ratio" \
	"^\| Procedure call, 3 arguments \| - \| 2.5 \| 2.5 \| 1.5 \| 1.49 \| 1.49..1.52 \(n 7, 98.4%\) \| 0.6 \| ns \| cycle model: 5 cycles \(call, ret and add, arguments in registers\) x 0.5 ns \|$" \
	cat "$md"
check_output "hardware + software = estimate" \
	"^\| System call \(getpid\) \| 50 \| 75 \| 125 \| 100 \| 99 \| 99..101 \(n 7, 98.4%\) \| 0.8 \| ns \|" \
	cat "$md"
check_output "an estimate that builds on other figures" \
	"^\| TCP round trip, to the peer \| 290 \| 20 \| 310 \| 400 \| .* \| 1.29 \| us \| builds on loopback TCP round trip \+ the link's share of ping \(290 us\) \|$" \
	cat "$md"
check_output "no basis, said" \
	"^\| TCP round trip, loopback \| - \| - \| - \| 20 \| .* \| no basis: builds on ctxsw_process, not measured \|$" \
	cat "$md"
check_output "a figure without samples" \
	"^\| Loop overhead \(one iteration\) \| 0.5 \| 0 \| 0.5 \| 0.5 \| - \| one figure, no samples \| 1 \| ns \| cycle model: 1 cycles .* \|$" \
	cat "$md"
check_output "a row not measured" \
	"^\| Memory latency, level 3 \| 25 \| 0 \| 25 \| not measured \| - \| - \| - \|  \| cycle model: 50 cycles .* \|$" \
	cat "$md"
check_output "large figures without an exponent" \
	"^\| Memory read bandwidth, 1 thread \| 6104 \| 0 \| 6104 \| 10000 \| 9900 \| 9900..10100 \(n 7, 98.4%\) \|" \
	cat "$md"
check_output "a heavy tail: the median's interval, min..max for 7 samples" \
	"^\| Process creation \(fork\+exit\+wait\) \| - \| - \| - \| 118 \| 109 \| 109..3650 \(n 7, 98.4%\) \|" \
	cat "$md"
check_equal "every summary row has 10 cells" \
	"$(sed -n '/^| Parameter/,/^$/p' "$md" | sed '1,2d;$d' | awk -F' [|] ' 'NF != 10' | wc -l)" 0
check_equal "every interval non-negative, inside the samples' range" \
	"$(sed -n '/^| Parameter/,/^$/p' "$md" | sed '1,2d;$d' | awk -F' [|] ' '
		$7 ~ /\.\./ { split($7, a, /\.\.| /); if (a[1] < 0 || a[1] + 0 < $6 + 0) print }' | wc -l)" 0
check_output "flag: non-monotonic calls" \
	"^- Non-monotonic: a call with 3 arguments \(1.5 ns\) is cheaper than one with 0 \(2 ns\)" cat "$md"
check_output "flag: O_SYNC on a rotational disk" \
	"^- Implausible: 409600 O_SYNC writes/s of 1024 B on /data \(ext4\) while the machine's disk is described as rotational" cat "$md"
check_output "flag: tmpfs is not a disk" "^- Not a disk: /tmp is tmpfs" cat "$md"
check_output "flag: high spread, from the median's interval" \
	"^- High spread: fork: 98.4% interval of the median 109..3650 \(n 7\) reaches beyond \+-25% of the median 118\$" cat "$md"
check_output "flag: an estimate 80x off, with its likely cause" \
	"^- Estimate off by 80.0x: tcp_bw_peer: estimated 4000, measured 50 MiB/s \(builds on loopback TCP bandwidth \(the link's speed is not stated\)\); likely cause: a figure it builds on is off" cat "$md"
check_output "flag: a hardware assumption 2772x off" \
	"^- Estimate off by 2772x: fa_sync_4k: .*likely cause: the hardware assumed is not the hardware here" cat "$md"
check_output "flag: a cache level sysfs does not back" \
	"^- Cache level against sysfs: memlat level_2: up to 256 KiB at 4 ns \(sysfs L2: 1 MiB; disagrees: more than 2x apart\)$" cat "$md"
check_output "flag: a plateau beyond the sysfs levels" \
	"^- Cache level against sysfs: memlat level_4: a plateau up to 24 MiB .*not a cache level" cat "$md"
check_equal "no flag for a level that agrees" \
	"$(grep -c '^- Cache level against sysfs: memlat level_1' "$md")" 0
check_output "the notes of a table from its NAME.meta.json" \
	"^- levels_check: 3 of 4 detected levels disagree with sysfs$" cat "$md"
check_output "flag: a falling read curve" "^- Non-monotonic: /data seq-read: 4096 B chunks" cat "$md"
check_equal "no flag for the clean figures" \
	"$(grep -cE '^- (High spread: (syscall|call0|tcp_rtt)|.*nfs4.*Implausible)' "$md")" 0
check_output "the machine block as saved" \
	"^\| memory_speed \| not known: dmidecode, which reads it from the firmware's tables, is not installed \|$" cat "$md"
check_output "side by side with local / remote" \
	"^\| op \| chunk_bytes \| /data \(ext4\) MiB/s \| /tmp \(tmpfs\) MiB/s \| /mnt/nfs \(nfs4\) MiB/s \| local / remote \|$" cat "$md"
check_output "side by side: the ratio" "^\| sync-write \| 4096 \| 1300 \| 2000 \| 2 \| 650 \|$" cat "$md"
check_output "sizes in human units in the tables" \
	"^\| /data \| ext4 \| sync-write \| 4 KiB \| 7 \| 1300 \|" cat "$md"
check_output "transfers: why they are missing" "The syncdev module is not loaded" cat "$md"
check_output "the plots linked" "^!\[File access by chunk size" cat "$md"
check "methodology.md written" test -s "$tmp/rep/methodology.md"

if command -v python3 >/dev/null 2>&1; then
	check "report.html well formed, every plot inline" python3 - "$tmp/rep" <<'PY'
import base64, glob, html.parser, os, sys
d = sys.argv[1]
VOID = {'meta', 'img', 'br', 'hr', 'link', 'input', 'source', 'wbr'}
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.errors, self.imgs = [], [], []
    def handle_starttag(self, tag, attrs):
        if tag == 'img':
            self.imgs.append(dict(attrs).get('src', ''))
        if tag not in VOID:
            self.stack.append(tag)
    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append('</%s> at %s' % (tag, self.getpos()))
        else:
            self.stack.pop()
text = open(os.path.join(d, 'report.html')).read()
p = P()
p.feed(text)
p.close()
assert text.startswith('<!DOCTYPE html>'), 'no doctype'
assert not p.errors, p.errors[:3]
assert not p.stack, 'unclosed: %s' % p.stack
plots = sorted(glob.glob(os.path.join(d, '*.svg')))
inline = [base64.b64decode(s.split(',', 1)[1]) for s in p.imgs
          if s.startswith('data:image/svg+xml;base64,')]
assert len(plots) == 2 and len(inline) == len(plots), (plots, len(inline))
for f in plots:
    assert open(f, 'rb').read() in inline, f
assert text.count('<tr>') > 40, 'tables missing'
PY
fi
check_exit "--render with --peer is a usage error" 2 $OSB report --render --peer 1.2.3.4 --out "$tmp/rep"
mkdir "$tmp/empty"
check_exit "--render of a folder without results fails" 1 $OSB report --render --out "$tmp/empty"

# A folder's metadata in a layout this osbench does not know is refused,
# not misread: without a format_version, and with another one.
cp -r tests/host/report-fixture "$tmp/nover"
sed '1s/"format_version": 1, //' tests/host/report-fixture/call.meta.json \
	>"$tmp/nover/call.meta.json"
check_exit "--render refuses metadata without a format_version" 1 \
	$OSB report --render --out "$tmp/nover"
check_output "the refusal names the file and what is missing" \
	'nover/call\.meta\.json: no format_version first' \
	$OSB report --render --out "$tmp/nover"
check_exit "no report.md from the refused folder" 1 test -e "$tmp/nover/report.md"
cp -r tests/host/report-fixture "$tmp/v2"
sed '1s/"format_version": 1,/"format_version": 2,/' \
	tests/host/report-fixture/summary.meta.json >"$tmp/v2/summary.meta.json"
check_exit "--render refuses metadata of an unknown format_version" 1 \
	$OSB report --render --out "$tmp/v2"
check_output "the refusal names the file and both versions" \
	'v2/summary\.meta\.json: format_version 2 is not the one this osbench reads \(1\)' \
	$OSB report --render --out "$tmp/v2"
finish
