// SPDX-License-Identifier: GPL-2.0
/*
 * The ICMP echo row of osbench net: the system's ping (busybox's in the
 * guests) sends one echo request every 0.2 s and the reply lines' times
 * are the samples, the first ones dropped as warm-up (ARP, caches).  The
 * kernel answers echo requests itself, so no server is involved.  When
 * ping is missing or not allowed to open its socket, the row is empty
 * and a note says why.
 */
#include "net.h"
#include "pingparse.h"
#include "util.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* "ping", or busybox's applet where ping is not a command of its own. */
static const char *ping_command(void)
{
	return system("command -v ping >/dev/null 2>&1") == 0 ? "ping" :
	       "busybox ping";
}

int net_ping(struct net_run *run)
{
	unsigned total = run->m.warmup + run->m.samples, n = 0;
	double *v = xcalloc(total, sizeof(double));
	char cmd[160], line[512], last[512] = "no output";
	FILE *p;
	int status;

	snprintf(cmd, sizeof(cmd), "%s -c %u -i 0.2 -W 2 %s 2>&1",
		 ping_command(), total, inet_ntoa(run->addr));
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p)) {
		if (n < total && ping_reply_ms(line, &v[n]) == 0)
			v[n++] *= 1e3;	/* us */
		else if (line[0] != '\n')
			snprintf(last, sizeof(last), "%s", line);
	}
	status = p ? pclose(p) : -1;
	if (n <= run->m.warmup) {
		last[strcspn(last, "\n")] = 0;
		report_note(run->r, "icmp", "no ping figures: '%s' gave %u "
			    "replies (status %d): %s", cmd, n, status, last);
		net_row(run, "icmp", "round trip", 56, NULL, "us");
	} else {
		net_row_samples(run, "icmp", "round trip", 56,
				v + run->m.warmup, n - run->m.warmup, "us");
	}
	free(v);
	return EXIT_OK;
}
