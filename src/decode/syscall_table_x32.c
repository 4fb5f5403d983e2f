// SPDX-License-Identifier: GPL-2.0
/*
 * The x32 syscall table (events.h, SONDE_NR_X32), for the syscall sets
 * only: -e trace=getpid@x32 selects x32 calls as strace's sets do, though
 * this kernel has no x32 ABI and sonde names none of them.
 *
 * Where the facts come from (no code was copied from anywhere): the x32
 * numbers below 512 are the x86-64 calls of the same numbers, but for
 * those the kernel's syscall table marks 64-bit only (Debian's
 * <asm/unistd_x32.h> lacks them; uretprobe, uprobe and map_shadow_stack,
 * newer, from the kernel's table), which strace 6.1 names "NAME#64"; 512
 * to 547 are the x32 entry points of calls whose structs hold pointers
 * (<asm/unistd_x32.h>). Checked on Debian's strace 6.1: a program issued
 * every number from 0x40000000 to 0x4000022f under strace -e raw=all,
 * and each name matched up to 450, strace's last.
 */
#include <stdio.h>
#include <string.h>

#include <sonde/syscalls.h>

#include "decode/syscall_table.h"

static const unsigned short x32_no[] = {
	13,  15,  16,  19,  20,	 45,  46,  47,	54,  55,  59,  101, 127, 128, 129, 131, 134,
	156, 174, 177, 178, 180, 205, 206, 209, 211, 214, 215, 222, 236, 244, 246, 247, 273,
	274, 278, 279, 295, 296, 297, 299, 307, 310, 311, 322, 327, 328, 335, 336, 453,
};

#define X32_OWN 512 /* the first x32 entry point */

static const char *const x32_own[] = {
	"rt_sigaction",
	"rt_sigreturn",
	"ioctl",
	"readv",
	"writev",
	"recvfrom",
	"sendmsg",
	"recvmsg",
	"execve",
	"ptrace",
	"rt_sigpending",
	"rt_sigtimedwait",
	"rt_sigqueueinfo",
	"sigaltstack",
	"timer_create",
	"mq_notify",
	"kexec_load",
	"waitid",
	"set_robust_list",
	"get_robust_list",
	"vmsplice",
	"move_pages",
	"preadv",
	"pwritev",
	"rt_tgsigqueueinfo",
	"recvmmsg",
	"sendmmsg",
	"process_vm_readv",
	"process_vm_writev",
	"setsockopt",
	"getsockopt",
	"io_setup",
	"io_submit",
	"execveat",
	"preadv2",
	"pwritev2",
};

_Static_assert(X32_OWN + sizeof(x32_own) / sizeof(x32_own[0]) <= SONDE_NR_X32_LEN,
	       "the x32 range covers its table");

static int x32_64_only(unsigned int n)
{
	for (size_t i = 0; i < sizeof(x32_no) / sizeof(x32_no[0]); i++)
		if (x32_no[i] == n)
			return 1;
	return 0;
}

const char *sonde_syscall_x32_name(unsigned int n, char *buf, size_t len, unsigned int *classes)
{
	const char *name;
	int nr;

	if (n >= X32_OWN) {
		if (n - X32_OWN >= sizeof(x32_own) / sizeof(x32_own[0]))
			return NULL;
		name = x32_own[n - X32_OWN];
		nr = sonde_syscall_lookup(name);
		*classes = nr >= 0 ? sonde_syscall_tab[nr].classes : 0;
		return name;
	}
	if (n >= SONDE_SYSCALL_TAB_LEN || !sonde_syscall_tab[n].name)
		return NULL;
	*classes = sonde_syscall_tab[n].classes;
	if (!x32_64_only(n))
		return sonde_syscall_tab[n].name;
	snprintf(buf, len, "%s#64", sonde_syscall_tab[n].name);
	return buf;
}
