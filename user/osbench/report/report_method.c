// SPDX-License-Identifier: GPL-2.0
/*
 * DIR/methodology.md: how every figure of the report was measured,
 * written from the text below (kept in the program, so that a report is
 * complete wherever the program runs), and, when the source tree's docs
 * are beside the program (../docs from its directory, as in build/),
 * copies of docs/microbench.md and docs/io.md, the full descriptions.
 */
#include "report_parts.h"
#include "util.h"

#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char method[] =
"# Methodology\n\n"
"Written by `osbench report`; the full descriptions are docs/microbench.md\n"
"and docs/io.md of the source tree (copied here when they were found).\n\n"
"## Measuring\n\n"
"- **Auto-sized samples.** The iteration count grows until one sample\n"
"  lasts at least 10 ms (`--quick` 2 ms, `--smoke` 50 us), far above the\n"
"  resolution and cost of CLOCK_MONOTONIC.\n"
"- **Warm-up.** The sizing runs and 2 further samples (quick 1) are\n"
"  thrown away: caches, TLBs, predictors and the clock frequency settle.\n"
"- **Repetition.** 11 samples (quick 7, smoke 3); the median is the\n"
"  headline figure, the minimum beside it (lmbench's convention).  Its\n"
"  interval is the median's own, distribution-free: the order statistics\n"
"  x(r)..x(n+1-r) with r the largest rank for which P(B < r) <= 2.5%,\n"
"  B ~ Binomial(n, 1/2) (11 samples: 2nd..10th, 98.8%; 7: min..max,\n"
"  98.4%; 3: min..max, 75%).  It lies inside the samples' range, so it is\n"
"  never below the smallest sample.  CSV columns median_lo, median_hi.\n"
"  Plots draw the median with an error bar from the smallest to the\n"
"  largest sample.\n"
"- **Overhead subtraction.** The loop's own cost (measured, not assumed)\n"
"  is subtracted from clock reads, calls and system calls; a figure\n"
"  whose overhead is larger than what is left is printed as `-`.\n"
"- **Pinning.** Context switches pin both parties; memory bandwidth pins\n"
"  one thread per CPU.\n\n"
"## Estimates\n\n"
"Every estimate is base hardware + software overhead = estimate (a\n"
"part is `-` where it is not split), then the actual figure.  Every\n"
"summary row states the basis of its estimate: a cycle model (a\n"
"cycle count times this machine's TSC cycle time), figures of the same\n"
"run it builds on (e.g. a TCP round trip to the peer = loopback round\n"
"trip + the link's share of ICMP echo; memory bandwidth from latency by\n"
"Little's law), a hardware figure the machine states, a typical figure,\n"
"or \"no basis\".  The ratio is measured / estimate.\n\n"
"## File access, local and remote\n\n"
"A scratch file is written with O_SYNC writes in chunks of 64 B to 1 MiB,\n"
"then read sequentially and at random unaligned offsets; before every\n"
"read sample its pages are dropped (POSIX_FADV_DONTNEED).  Every byte is\n"
"known (a pattern repeating every largest chunk) and the whole file is\n"
"read back cold and compared after each directory's series.  The remote\n"
"directory is an NFS v4.2 mount of the other guest's disk (kernel nfsd);\n"
"in the guests, the local directory is ext2 on a virtio-blk disk (a\n"
"sparse file on the host, whose flushes QEMU turns into fdatasync), or\n"
"tmpfs, which is memory, and the report says which.\n\n"
"## Network\n\n"
"TCP round trip: a 64-byte message and its echo on one TCP_NODELAY\n"
"connection.  Connect and close are timed apart, many per sample.\n"
"Bandwidth: one connection per sample, the server counts the bytes.\n"
"ICMP: the system's ping, one request every 0.2 s.  The device: the\n"
"same figures through /dev/slave_device and the peer's\n"
"/dev/master_device; without the two-way stream the round trip is a TCP\n"
"request answered through the device, and the device's one-way time is\n"
"that minus half the TCP round trip.\n\n"
"## Anomaly flags\n\n"
"The report flags a curve that goes the wrong way where it cannot (call\n"
"cost by argument count, latency by cache level, file rate by chunk),\n"
"physically implausible rates (faster than memory; more O_SYNC writes per\n"
"second than a rotational disk turns; tmpfs taken for a disk) and a\n"
"spread too wide for the median to mean much (the median's interval\n"
"reaching beyond +-25% of the median), and an estimate more than 10x off\n"
"what was measured, with the likely cause.\n\n"
"## Conditions\n\n"
"Timings under emulation (QEMU TCG) and on a shared machine are slow and\n"
"noisy: compare ratios measured side by side in one run.\n";

static int write_text(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");
	int bad;

	if (!f) {
		msg_errno("create %s", path);
		return -1;
	}
	fwrite(text, 1, len, f);
	bad = ferror(f);
	if (fclose(f) || bad) {
		msg_errno("write %s", path);
		return -1;
	}
	return 0;
}

/* Copy SRC to DIR/NAME; 0, or -1 when SRC cannot be read. */
static int copy_doc(const char *src, const char *dir, const char *name)
{
	FILE *f = fopen(src, "r");
	char *buf = NULL, *dst;
	size_t cap = 0, len = 0, n;
	int rc;

	if (!f)
		return -1;
	do {
		if (len == cap)
			buf = xreallocarray(buf, cap = cap ? 2 * cap : 65536, 1);
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	dst = xasprintf("%s/%s", dir, name);
	rc = write_text(dst, buf, len);
	free(dst);
	free(buf);
	return rc;
}

const char *rep_methodology(const char *dir)
{
	char exe[PATH_MAX], *path;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int copied = 0;

	path = xasprintf("%s/methodology.md", dir);
	write_text(path, method, strlen(method));
	free(path);
	if (n > 0) {
		exe[n] = 0;
		path = xasprintf("%s/../docs/microbench.md", dirname(exe));
		copied = copy_doc(path, dir, "microbench.md") == 0;
		strcpy(strrchr(path, '/') + 1, "io.md");
		copied += copy_doc(path, dir, "io.md") == 0;
		free(path);
	}
	return copied == 2 ?
	       "methodology.md (written by osbench), with microbench.md and "
	       "io.md copied from the source tree's docs/" :
	       "methodology.md (written by osbench; the source tree's docs/ "
	       "was not found beside the program, so its full descriptions "
	       "are not copied)";
}
