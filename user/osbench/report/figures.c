// SPDX-License-Identifier: GPL-2.0
/* The names of the figures, as summary.csv and micro-opt's table give them. */
#include "figures.h"

static const char *const fig_names[FIG_COUNT] = {
	[FIG_LOOP] = "loop", [FIG_RDTSC] = "rdtsc",
	[FIG_RDTSC_FENCED] = "rdtsc_fenced", [FIG_RDTSCP] = "rdtscp",
	[FIG_CLOCK_GETTIME] = "clock_gettime",
	[FIG_CALL0] = "call0", [FIG_CALL0 + 1] = "call1",
	[FIG_CALL0 + 2] = "call2", [FIG_CALL0 + 3] = "call3",
	[FIG_CALL0 + 4] = "call4", [FIG_CALL0 + 5] = "call5",
	[FIG_CALL0 + 6] = "call6", [FIG_CALL7] = "call7",
	[FIG_SYSCALL] = "syscall", [FIG_OPEN_CLOSE] = "open_close",
	[FIG_FOPEN_FCLOSE] = "fopen_fclose",
	[FIG_CREATE_DELETE] = "create_delete",
	[FIG_MALLOC_FREE] = "malloc_free", [FIG_FORK] = "fork",
	[FIG_SPAWN] = "posix_spawn", [FIG_THREAD] = "thread",
	[FIG_CTXSW_PROCESS] = "ctxsw_process",
	[FIG_CTXSW_THREAD] = "ctxsw_thread",
	[FIG_MEM_L1] = "mem_L1", [FIG_MEM_L1 + 1] = "mem_L2",
	[FIG_MEM_L1 + 2] = "mem_L3", [FIG_MEM_L4] = "mem_L4",
	[FIG_MEM_MAIN] = "mem_main",
	[FIG_BW_READ_1] = "bw_read_1", [FIG_BW_READ_ALL] = "bw_read_all",
	[FIG_BW_WRITE_1] = "bw_write_1", [FIG_BW + 3] = "bw_write_all",
	[FIG_BW_COPY_1] = "bw_copy_1", [FIG_BW_LAST] = "bw_copy_all",
	[FIG_FAULT_MINOR] = "fault_minor", [FIG_FAULT_MAJOR] = "fault_major",
	[FIG_TCP_RTT] = "tcp_rtt", [FIG_TCP_RTT_PEER] = "tcp_rtt_peer",
	[FIG_TCP_CONNECT] = "tcp_connect",
	[FIG_TCP_CONNECT_PEER] = "tcp_connect_peer",
	[FIG_TCP_BW] = "tcp_bw", [FIG_TCP_BW_PEER] = "tcp_bw_peer",
	[FIG_ICMP_RTT] = "icmp_rtt", [FIG_ICMP_RTT_PEER] = "icmp_rtt_peer",
	[FIG_DEV_RTT] = "dev_rtt", [FIG_DEV_RTT_PEER] = "dev_rtt_peer",
	[FIG_DEV_BW] = "dev_bw", [FIG_DEV_BW_PEER] = "dev_bw_peer",
	[FIG_FA_SYNC_4K] = "fa_sync_4k",
	[FIG_FA_SYNC_4K_REMOTE] = "fa_sync_4k_remote",
	[FIG_FA_SEQ_64K] = "fa_seq_64k",
	[FIG_FA_SEQ_64K_REMOTE] = "fa_seq_64k_remote",
	[FIG_FA_RAND_4K] = "fa_rand_4k",
	[FIG_FA_RAND_4K_REMOTE] = "fa_rand_4k_remote",
};

const char *rep_figure_name(enum figure f)
{
	return f < FIG_COUNT && fig_names[f] ? fig_names[f] : "?";
}
