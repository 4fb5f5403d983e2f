// SPDX-License-Identifier: GPL-2.0
/*
 * Message passing and cross-process memory as strace 6.1 prints them:
 * SysV msgsnd/msgrcv and semop/semtimedop, process_vm_readv and
 * process_vm_writev.
 */
#include <inttypes.h>

#include "decode/strace/strace_int.h"

XLAT_DEF(x_msg_ipc_flags, 0, XN(010000, "MSG_NOERROR"), XN(020000, "MSG_EXCEPT"),
	 XN(040000, "MSG_COPY"), XN(04000, "IPC_NOWAIT"));
XLAT_DEF(x_semop_flags, 0, XN(0x1000, "SEM_UNDO"), XN(0x800, "IPC_NOWAIT"));

/* struct msgbuf: {mtype=7, mtext="hello"}, count bytes of text, then
 * ", count". */
static void pr_msgbuf(struct st *s, int phase, uint64_t a, uint64_t count)
{
	int64_t mtype;

	if (st_fetch(s, phase, a, &mtype, sizeof(mtype))) {
		st_obj_begin(s);
		pr_long_field(s, "mtype", mtype);
		st_field(s, "mtext");
		pr_buf(s, phase, a + sizeof(mtype), count, 0);
		st_obj_end(s);
	}
	st_sep(s);
	pr_ulong(s, count);
}

void dec_msgsnd(struct st *s)
{
	pr_int(s, st_arg(s, 0));
	st_sep(s);
	pr_msgbuf(s, SONDE_PL_ENTRY, st_arg(s, 1), st_arg(s, 2));
	st_sep(s);
	pr_flags(s, &x_msg_ipc_flags, (uint32_t)st_arg(s, 3), "MSG_???");
}

/* strace shows the whole msgsz bytes of text, not only those received. */
void dec_msgrcv(struct st *s)
{
	pr_int(s, st_arg(s, 0));
	st_sep(s);
	st_entry_end(s);
	if (st_ok(s)) {
		pr_msgbuf(s, SONDE_PL_EXIT, st_arg(s, 1), st_arg(s, 2));
	} else {
		pr_addr(s, st_arg(s, 1));
		st_sep(s);
		pr_ulong(s, st_arg(s, 2));
	}
	st_sep(s);
	pr_long(s, st_arg(s, 3));
	st_sep(s);
	pr_flags(s, &x_msg_ipc_flags, (uint32_t)st_arg(s, 4), "MSG_???");
}

/* A struct sembuf, its 6 bytes little-endian in v. */
static void pr_sembuf(struct st *s, uint64_t v)
{
	st_obj_begin(s);
	pr_u32_field(s, "sem_num", (uint16_t)v);
	pr_int_field(s, "sem_op", (int16_t)(v >> 16));
	st_field(s, "sem_flg");
	pr_flags(s, &x_semop_flags, (uint16_t)(v >> 32), "SEM_???");
	st_obj_end(s);
}

static void pr_semop(struct st *s)
{
	pr_int(s, st_arg(s, 0));
	st_sep(s);
	pr_mem_array(s, SONDE_PL_ENTRY, st_arg(s, 1), st_arg(s, 2), 6, pr_sembuf);
	st_sep(s);
	pr_uint(s, st_arg(s, 2));
}

void dec_semop(struct st *s)
{
	pr_semop(s);
}

void dec_semtimedop(struct st *s)
{
	pr_semop(s);
	st_sep(s);
	ps_timespec(s, SONDE_PL_ENTRY, st_arg(s, 3));
}

/* The remote vector is the other process's memory: addresses only. */
static void pr_remote_iov(struct st *s)
{
	pr_iov(s, SONDE_PL_ENTRY, st_arg(s, 3), st_arg(s, 4), IOV_ADDRS);
	st_sep(s);
	pr_ulong(s, st_arg(s, 4));
	st_sep(s);
	pr_ulong(s, st_arg(s, 5));
}

/* The local vector holds what the call read, printed at exit. */
void dec_process_vm_readv(struct st *s)
{
	pr_pid(s, st_arg(s, 0));
	st_sep(s);
	st_entry_end(s);
	pr_iov(s, SONDE_PL_EXIT, st_arg(s, 1), st_arg(s, 2),
	       st_ok(s) ? (uint64_t)s->ret : IOV_ADDRS);
	st_sep(s);
	pr_ulong(s, st_arg(s, 2));
	st_sep(s);
	pr_remote_iov(s);
}

void dec_process_vm_writev(struct st *s)
{
	pr_pid(s, st_arg(s, 0));
	st_sep(s);
	pr_iov(s, SONDE_PL_ENTRY, st_arg(s, 1), st_arg(s, 2), UINT64_MAX);
	st_sep(s);
	pr_ulong(s, st_arg(s, 2));
	st_sep(s);
	pr_remote_iov(s);
}
