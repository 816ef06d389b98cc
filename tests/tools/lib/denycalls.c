// SPDX-License-Identifier: GPL-2.0
/*
 * deny_calls: the filter, in classic BPF over struct seccomp_data.
 *
 *	load arch; not this one: kill
 *	load nr; an x32 number (on x86_64): kill
 *	for each call: nr equal: return ERRNO | err
 *	return ALLOW
 */
#include "denycalls.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>

#if defined(__x86_64__)
#define DENY_ARCH AUDIT_ARCH_X86_64
/* x32's calls come with this architecture and this bit in their number. */
#define DENY_NR_ABOVE 0x40000000U
#elif defined(__i386__)
#define DENY_ARCH AUDIT_ARCH_I386
#else
#error "deny_calls: the architecture check knows x86_64 and i386"
#endif

#define STMT(code, k) ((struct sock_filter)BPF_STMT(code, k))
#define JUMP(code, k, jt, jf) ((struct sock_filter)BPF_JUMP(code, k, jt, jf))

int deny_calls(const unsigned int *nrs, size_t n, int err)
{
	struct sock_filter code[6 + 2 * DENYCALLS_MAX + 1];
	struct sock_fprog prog = { .filter = code };
	unsigned int i = 0;
	size_t c;

	if (n > DENYCALLS_MAX || err < 1 || err > 4095) {
		errno = EINVAL;
		return -1;
	}
	code[i++] = STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	code[i++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, DENY_ARCH, 1, 0);
	code[i++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	code[i++] = STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
#ifdef DENY_NR_ABOVE
	code[i++] = JUMP(BPF_JMP | BPF_JGE | BPF_K, DENY_NR_ABOVE, 0, 1);
	code[i++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
#endif
	for (c = 0; c < n; c++) {
		code[i++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, nrs[c], 0, 1);
		code[i++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (unsigned int)err);
	}
	code[i++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog.len = (unsigned short)i;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return -1;
	return 0;
}
