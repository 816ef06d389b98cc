// SPDX-License-Identifier: GPL-2.0
/*
 * The estimates of the network and file-access rows (the bases are
 * described in report_estimate.c).  A round trip is the endpoints' work,
 * from loopback, plus the link's, from ICMP echo; a remote file request
 * is a round trip plus the bytes at the link's bandwidth.
 */
#include "report_parts.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The loopback figures: the endpoints' own work. */
static void loopback(const struct rep *r, enum figure f, struct rep_est *e)
{
	double sys = rep_val(r, FIG_SYSCALL) / 1e3;

	if (f == FIG_TCP_RTT && rep_need(r, e, FIG_SYSCALL) &&
	    rep_need(r, e, FIG_CTXSW_PROCESS))
		rep_split(e, NAN, 4 * sys + 2 * rep_val(r, FIG_CTXSW_PROCESS) / 1e3 + 3,
		    "builds on 4 system calls, 2 process switches and "
		    "2 x 1.5 us of TCP/IP stack");
	else if (f == FIG_TCP_CONNECT && rep_need(r, e, FIG_TCP_RTT))
		rep_split(e, NAN, rep_val(r, FIG_TCP_RTT) + 3 * sys, "builds on one TCP "
		    "round trip (the handshake) + 3 system calls");
	else if (f == FIG_TCP_BW && rep_need(r, e, FIG_BW_COPY_1))
		rep_split(e, rep_val(r, FIG_BW_COPY_1) / 4, 0, "builds on memcpy "
		    "bandwidth / 4: two copies per byte, copy counted as "
		    "read + write");
	else if (f == FIG_ICMP_RTT && rep_need(r, e, FIG_SYSCALL))
		rep_split(e, NAN, 4 * sys + 2, "builds on ping's 2 system calls, the "
		    "kernel's echo and 2 wake-ups (~1 us each)");
}

/* To the peer: the link's share from ICMP, the rest from loopback. */
static void peer(const struct rep *r, enum figure f, struct rep_est *e)
{
	double link;

	if (f == FIG_ICMP_RTT_PEER) {
		rep_say(e, NAN, "no basis: the link is emulated (QEMU's UDP "
		    "socket), no physical figure to build on");
		return;
	}
	if (f == FIG_TCP_BW_PEER) {
		if (rep_need(r, e, FIG_TCP_BW))
			rep_say(e, rep_val(r, FIG_TCP_BW), "builds on loopback TCP "
			    "bandwidth (the link's speed is not stated)");
		return;
	}
	if (!rep_need(r, e, FIG_ICMP_RTT_PEER) || !rep_need(r, e, FIG_ICMP_RTT) ||
	    !rep_need(r, e, FIG_TCP_RTT))
		return;
	link = rep_val(r, FIG_ICMP_RTT_PEER) - rep_val(r, FIG_ICMP_RTT);
	if (f == FIG_TCP_RTT_PEER)
		rep_split(e, link, rep_val(r, FIG_TCP_RTT), "builds on loopback TCP "
		    "round trip + the link's share of ping (%.3g us)", link);
	else
		rep_split(e, link, rep_val(r, FIG_TCP_RTT) + 3 *
			  rep_val(r, FIG_SYSCALL) / 1e3, "builds on the TCP round trip to the peer + 3 "
		    "system calls");
}

void rep_estimate_net(const struct rep *r, enum figure f, struct rep_est *e)
{
	enum figure tcp = f == FIG_DEV_RTT ? FIG_TCP_RTT :
			  f == FIG_DEV_RTT_PEER ? FIG_TCP_RTT_PEER :
			  f == FIG_DEV_BW ? FIG_TCP_BW : FIG_TCP_BW_PEER;

	rep_say(e, NAN, "no basis");
	if (f >= FIG_DEV_RTT) {
		if (rep_need(r, e, tcp))
			rep_say(e, rep_val(r, tcp), "builds on userspace TCP (%s): the "
			    "device is a kernel TCP socket", rep_figure_name(tcp));
	} else if ((f - FIG_TCP_RTT) % 2) {
		peer(r, f, e);
	} else {
		loopback(r, f, e);
	}
}

/* A local file system's figure: memory for tmpfs, else the disk. */
static void local(const struct rep *r, enum figure f, struct rep_est *e)
{
	double bytes = f == FIG_FA_SEQ_64K ? 65536 : 4096;

	if (!strcmp(r->local_fs, "tmpfs") && rep_need(r, e, FIG_BW_WRITE_1) &&
	    rep_need(r, e, FIG_SYSCALL))
		rep_say(e, bytes / MIB / (bytes / (rep_val(r, FIG_BW_WRITE_1) * MIB) +
				      rep_val(r, FIG_SYSCALL) / 1e9),
		    "builds on memory bandwidth and one system call: tmpfs "
		    "is memory");
	else if (r->rotational == 1)
		rep_say(e, f == FIG_FA_SEQ_64K ? 100 : 4096 / MIB /
		    (f == FIG_FA_SYNC_4K ? 8.33e-3 : 12.2e-3),
		    "hardware: a rotational disk, 7200 rpm assumed (%s)",
		    f == FIG_FA_SEQ_64K ? "~100 MiB/s media rate" :
		    f == FIG_FA_SYNC_4K ? "one turn per synchronous write" :
		    "a seek and half a turn per read");
	else if (!strcmp(r->local_fs, "tmpfs"))
		return;
	else
		rep_say(e, NAN, "no basis: the disk's latency and rate are not "
		    "stated (%s)", r->local_fs[0] ? r->local_fs : "?");
}

void rep_estimate_file(const struct rep *r, enum figure f, struct rep_est *e)
{
	enum figure base = f - (f - FIG_FA_SYNC_4K) % 2;
	double bytes = base == FIG_FA_SEQ_64K ? 65536 : 4096, t;

	rep_say(e, NAN, "no basis");
	if (f == base)
		return local(r, f, e);
	if (!rep_need(r, e, FIG_TCP_RTT_PEER) || !rep_need(r, e, FIG_TCP_BW_PEER) ||
	    !rep_need(r, e, base))
		return;
	t = rep_val(r, FIG_TCP_RTT_PEER) / 1e6 +
	    bytes / (rep_val(r, FIG_TCP_BW_PEER) * MIB) +
	    bytes / (rep_val(r, base) * MIB);
	rep_say(e, bytes / MIB / t, "builds on one TCP round trip to the peer, "
	    "the bytes at TCP bandwidth, and the same operation on the "
	    "local disk (the server's)");
}
