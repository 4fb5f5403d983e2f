// SPDX-License-Identifier: GPL-2.0
/*
 * The command's seccomp filter (include/sonde/inject.h). Classic BPF
 * jumps reach at most 255 instructions ahead, so each number gets its own
 * test and return rather than a jump to one shared return:
 *
 *   ld  arch
 *   jeq AUDIT_ARCH_X86_64 ? next : +1
 *   ret ALLOW                  (i386 calls, x32 numbers below: untouched)
 *   ld  nr
 *   jeq N1 ? next : +1         one pair per tampered number
 *   ret USER_NOTIF
 *   ...
 *   ret ALLOW
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdlib.h>

#include <sonde/inject.h>

int sonde_inject_filter(const struct sonde_inject *inj, struct sock_filter **prog,
			unsigned short *len)
{
	struct sock_filter *f = malloc((5 + 2 * SONDE_NR_SYSCALLS) * sizeof(*f));
	unsigned short n = 0;

	if (!f)
		return -ENOMEM;
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, arch));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, nr));
	for (unsigned int nr = 0; nr < SONDE_NR_SYSCALLS; nr++) {
		if (!sonde_inject_rule_for(inj, nr))
			continue;
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF);
	}
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	*prog = f;
	*len = n;
	return 0;
}
