// SPDX-License-Identifier: GPL-2.0
/*
 * POSIX message queues as strace 6.1 prints them: mq_open, mq_unlink,
 * mq_timedsend, mq_timedreceive, mq_notify, mq_getsetattr.
 */
#include <fcntl.h>
#include <stdint.h>

#include "decode/strace/strace_int.h"

XLAT_DEF(x_mq_flags, 0, XE(O_NONBLOCK));

/* struct mq_attr: mq_open's flags as a number, mq_getsetattr's named. */
static void pr_mq_attr(struct st *s, int phase, uint64_t a, int named)
{
	int64_t m[4];

	if (!st_fetch(s, phase, a, m, sizeof(m)))
		return;
	st_obj_begin(s);
	st_field(s, "mq_flags");
	if (named)
		pr_flags(s, &x_mq_flags, (uint64_t)m[0], "O_???");
	else
		pr_hex(s, (uint64_t)m[0]);
	pr_long_field(s, "mq_maxmsg", m[1]);
	pr_long_field(s, "mq_msgsize", m[2]);
	pr_long_field(s, "mq_curmsgs", m[3]);
	st_obj_end(s);
}

/* The mode and the attributes come only with O_CREAT. */
void dec_mq_open(struct st *s)
{
	uint32_t f = (uint32_t)st_arg(s, 1);

	/* A name, shown whole as a path is. */
	pr_path(s, st_arg(s, 0));
	st_sep(s);
	pr_open_flags(s, f);
	if (!(f & O_CREAT))
		return;
	st_sep(s);
	pr_oct(s, (uint32_t)st_arg(s, 2));
	st_sep(s);
	pr_mq_attr(s, SONDE_PL_ENTRY, st_arg(s, 3), 0);
}

void dec_mq_timedsend(struct st *s)
{
	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	pr_buf(s, SONDE_PL_ENTRY, st_arg(s, 1), st_arg(s, 2), 0);
	st_sep(s);
	pr_ulong(s, st_arg(s, 2));
	st_sep(s);
	pr_uint(s, (uint32_t)st_arg(s, 3));
	st_sep(s);
	ps_timespec(s, SONDE_PL_ENTRY, st_arg(s, 4));
}

/* The message and its priority at exit; the timeout was read at entry
 * and is shown whatever the call returned. */
void dec_mq_timedreceive(struct st *s)
{
	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	st_entry_end(s);
	pr_buf_ret(s, st_arg(s, 1));
	st_sep(s);
	pr_ulong(s, st_arg(s, 2));
	st_sep(s);
	if (st_ok(s))
		ps_uint(s, SONDE_PL_EXIT, st_arg(s, 3));
	else
		pr_addr(s, st_arg(s, 3));
	st_sep(s);
	ps_timespec(s, SONDE_PL_ENTRY, st_arg(s, 4));
}

void dec_mq_notify(struct st *s)
{
	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	ps_sigevent(s, SONDE_PL_ENTRY, st_arg(s, 1));
}

void dec_mq_getsetattr(struct st *s)
{
	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	pr_mq_attr(s, SONDE_PL_ENTRY, st_arg(s, 1), 1);
	st_sep(s);
	st_entry_end(s);
	if (st_ok(s))
		pr_mq_attr(s, SONDE_PL_EXIT, st_arg(s, 2), 1);
	else
		pr_addr(s, st_arg(s, 2));
}
