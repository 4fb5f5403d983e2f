// SPDX-License-Identifier: GPL-2.0
/*
 * Decoders of Linux native AIO (io_setup, io_submit, io_getevents,
 * io_pgetevents, io_cancel), as
 * strace 6.1 prints them: fio's libaio engine. io_submit's iocbs and
 * what they point to are captured by bpf/aio.h.
 */
#include <linux/aio_abi.h>
#include <stdio.h>
#include <string.h>

#include "decode/strace/strace_int.h"
#include <sonde/payload.h>

#define X_OF(e) { e, sizeof(e) / sizeof(e[0]), 0 }

static const struct xlat_ent aio_cmds_e[] = {
	XE(IOCB_CMD_PREAD), XE(IOCB_CMD_PWRITE), XE(IOCB_CMD_FSYNC),
	XE(IOCB_CMD_FDSYNC), XN(4, "IOCB_CMD_PREADX"), XE(IOCB_CMD_POLL),
	XE(IOCB_CMD_NOOP), XE(IOCB_CMD_PREADV), XE(IOCB_CMD_PWRITEV),
};
static const struct xlat_ent ioprio_class_e[] = {
	XN(0, "IOPRIO_CLASS_NONE"), XN(1, "IOPRIO_CLASS_RT"),
	XN(2, "IOPRIO_CLASS_BE"), XN(3, "IOPRIO_CLASS_IDLE"),
};
static const struct xlat_ent iocb_flags_e[] = {
	XE(IOCB_FLAG_RESFD), XN(1 << 1, "IOCB_FLAG_IOPRIO"),
};
/* strace shows the opcode in decimal (-X raw, -X verbose). */
static const struct xlat x_aio_cmds = { aio_cmds_e, sizeof(aio_cmds_e) / sizeof(aio_cmds_e[0]), 1 },
	x_ioprio_class = X_OF(ioprio_class_e), x_iocb_flags = X_OF(iocb_flags_e);

/* IOCB_FLAG_IOPRIO, not in every uapi header. */
#define AIO_FLAG_IOPRIO (1 << 1)

/* [0x7f...]: the context the kernel stored. */
static void ps_aio_ctx(struct st *s, int phase, uint64_t addr)
{
	uint64_t v;

	if (!st_fetch(s, phase, addr, &v, sizeof(v)))
		return;
	if (!s->j)
		sb_putc(s->o, '[');
	pr_addr(s, v);
	if (!s->j)
		sb_putc(s->o, ']');
}

void dec_io_setup(struct st *s)
{
	pr_uint(s, (uint32_t)st_arg(s, 0));
	st_sep(s);
	st_entry_end(s);
	if (st_ok(s))
		ps_aio_ctx(s, SONDE_PL_EXIT, st_arg(s, 1));
	else
		pr_addr(s, st_arg(s, 1));
}

/* IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4); -X raw the number, -X
 * verbose the number and the expression, its class in that style too. */
static void pr_ioprio(struct st *s, uint16_t v)
{
	char num[16];

	if (s->j) {
		pr_uint(s, v);
		return;
	}
	snprintf(num, sizeof(num), "%#x", v);
	if (s->opt->xlat == SONDE_XLAT_RAW) {
		sb_puts(s->o, num);
		return;
	}
	if (s->opt->xlat == SONDE_XLAT_VERBOSE)
		sb_printf(s->o, "%s /* ", num);
	sb_puts(s->o, "IOPRIO_PRIO_VALUE(");
	pr_xval(s, &x_ioprio_class, v >> 13, "IOPRIO_CLASS_???");
	sb_printf(s->o, ", %u)", v & 0x1fffu);
	if (s->opt->xlat == SONDE_XLAT_VERBOSE)
		sb_puts(s->o, " */");
}

/* aio_data, the optional key, flags and priority, the opcode and the
 * descriptor: what every iocb shows. */
static void pr_iocb_head(struct st *s, const struct iocb *cb)
{
	st_field(s, "aio_data");
	pr_hex(s, cb->aio_data);
	if (cb->aio_key)
		pr_u32_field(s, "aio_key", cb->aio_key);
	if (cb->aio_rw_flags) {
		st_field(s, "aio_rw_flags");
		pr_flags(s, &x_rwf, (uint32_t)cb->aio_rw_flags, "RWF_???");
	}
	st_field(s, "aio_lio_opcode");
	pr_xval(s, &x_aio_cmds, cb->aio_lio_opcode, "IOCB_CMD_???");
	if (cb->aio_flags & AIO_FLAG_IOPRIO) {
		st_field(s, "aio_reqprio");
		pr_ioprio(s, (uint16_t)cb->aio_reqprio);
	} else if (cb->aio_reqprio) {
		pr_int_field(s, "aio_reqprio", cb->aio_reqprio);
	}
	st_field(s, "aio_fildes");
	pr_fd(s, (int)cb->aio_fildes);
}

/* The flags, then the eventfd to notify when one is named. */
static void pr_iocb_flags(struct st *s, const struct iocb *cb)
{
	if (cb->aio_flags) {
		st_field(s, "aio_flags");
		pr_flags(s, &x_iocb_flags, cb->aio_flags, "IOCB_FLAG_???");
	}
	if (cb->aio_flags & IOCB_FLAG_RESFD) {
		st_field(s, "aio_resfd");
		pr_fd(s, (int)cb->aio_resfd);
	}
}

/* What follows a read's or write's buffer: the offset, the flags. */
static void pr_iocb_tail(struct st *s, const struct iocb *cb)
{
	pr_long_field(s, "aio_offset", cb->aio_offset);
	pr_iocb_flags(s, cb);
}

/* Lengths the kernel can take: a buffer and a count that fit. */
static int iocb_valid(const struct iocb *cb)
{
	return (int64_t)cb->aio_nbytes >= 0;
}

/* The buffer of a read or write: a pwrite's bytes, else its address. */
static void pr_iocb_rw(struct st *s, const struct iocb *cb)
{
	st_field(s, "aio_buf");
	if (cb->aio_lio_opcode == IOCB_CMD_PWRITE && iocb_valid(cb))
		pr_buf(s, SONDE_PL_ENTRY, cb->aio_buf, cb->aio_nbytes, 0);
	else
		pr_hex(s, cb->aio_buf);
	pr_ulong_field(s, "aio_nbytes", cb->aio_nbytes);
}

/* A vector's iovec: a pwritev's buffers as strings, a preadv's as
 * addresses. */
static void pr_iocb_vec(struct st *s, const struct iocb *cb)
{
	st_field(s, "aio_buf");
	if (iocb_valid(cb)) {
		pr_iov(s, SONDE_PL_ENTRY, cb->aio_buf, cb->aio_nbytes,
		       cb->aio_lio_opcode == IOCB_CMD_PWRITEV ? UINT64_MAX : IOV_ADDRS);
	} else {
		pr_hex(s, cb->aio_buf);
		pr_ulong_field(s, "aio_nbytes", cb->aio_nbytes);
	}
}

static void pr_iocb(struct st *s, uint64_t addr)
{
	struct iocb cb;

	if (!st_fetch(s, SONDE_PL_ENTRY, addr, &cb, sizeof(cb)))
		return;
	st_obj_begin(s);
	pr_iocb_head(s, &cb);
	switch (cb.aio_lio_opcode) {
	case IOCB_CMD_PREAD:
	case IOCB_CMD_PWRITE:
		pr_iocb_rw(s, &cb);
		pr_iocb_tail(s, &cb);
		break;
	case IOCB_CMD_PREADV:
	case IOCB_CMD_PWRITEV:
		pr_iocb_vec(s, &cb);
		pr_iocb_tail(s, &cb);
		break;
	case IOCB_CMD_POLL:
		st_field(s, "aio_buf");
		pr_flags(s, &x_poll, cb.aio_buf, "POLL???");
		pr_iocb_flags(s, &cb);
		break;
	}
	st_obj_end(s);
}

/* The iocb pointers, each iocb decoded, -s of them. */
void dec_io_submit(struct st *s)
{
	int64_t n = (int64_t)st_arg(s, 1);
	uint64_t a = st_arg(s, 2), p;

	pr_addr(s, st_arg(s, 0));
	st_sep(s);
	pr_long(s, (uint64_t)n);
	st_sep(s);
	if (n < 0 || !a || (n && !st_have_array(s, SONDE_PL_ENTRY, a, 1, 8))) {
		pr_unfetched(s, SONDE_PL_ENTRY, a);
		return;
	}
	st_arr_begin(s);
	for (int64_t i = 0; i < n; i++) {
		st_elem(s);
		if (st_array_cut(s, (uint64_t)i) || i >= SONDE_CAP_IOCB_MAX) {
			sb_puts(s->o, "...");
			break;
		}
		if (!st_peek(s, SONDE_PL_ENTRY, a + (uint64_t)i * 8, &p, 8)) {
			pr_unfetched(s, SONDE_PL_ENTRY, a + (uint64_t)i * 8);
			break;
		}
		pr_iocb(s, p);
	}
	st_arr_end(s);
}

static void pr_io_event(struct st *s, const struct io_event *e)
{
	st_obj_begin(s);
	st_field(s, "data");
	pr_hex(s, e->data);
	st_field(s, "obj");
	pr_hex(s, e->obj);
	pr_long_field(s, "res", e->res);
	pr_long_field(s, "res2", e->res2);
	st_obj_end(s);
}

/* The n events the call returned at a; a failed call's address. */
static void pr_io_events(struct st *s, uint64_t a, uint64_t n)
{
	struct io_event e;

	if (!st_ok(s) || !a || (n && !st_have_array(s, SONDE_PL_EXIT, a, n, sizeof(e)))) {
		pr_unfetched(s, SONDE_PL_EXIT, a);
		return;
	}
	st_arr_begin(s);
	for (uint64_t i = 0; i < n; i++) {
		st_elem(s);
		if (st_array_cut(s, i)) {
			sb_puts(s->o, "...");
			break;
		}
		st_peek(s, SONDE_PL_EXIT, a + i * sizeof(e), &e, sizeof(e));
		pr_io_event(s, &e);
	}
	st_arr_end(s);
}

/* The events at exit, then the timeout the kernel read at entry (and
 * io_pgetevents' signal mask, read with it). */
static void io_getevents_common(struct st *s, int with_sig)
{
	pr_addr(s, st_arg(s, 0));
	st_sep(s);
	pr_long(s, st_arg(s, 1));
	st_sep(s);
	pr_long(s, st_arg(s, 2));
	st_sep(s);
	st_entry_end(s);
	pr_io_events(s, st_arg(s, 3), st_ok(s) ? (uint64_t)s->ret : 0);
	st_sep(s);
	ps_timespec(s, SONDE_PL_ENTRY, st_arg(s, 4));
	if (with_sig) {
		st_sep(s);
		pr_kernel_sigset(s, st_arg(s, 5));
	}
}

void dec_io_getevents(struct st *s)
{
	io_getevents_common(s, 0);
}

void dec_io_pgetevents(struct st *s)
{
	io_getevents_common(s, 1);
}

/*
 * The iocb's head (what identifies the request), then at exit the
 * io_event written at result, or its address when the call failed: since
 * Linux 4.19 it always does (a cancelled request's event reaches the
 * ring and the call fails with EINPROGRESS).
 */
void dec_io_cancel(struct st *s)
{
	struct io_event e;
	struct iocb cb;

	pr_addr(s, st_arg(s, 0));
	st_sep(s);
	if (st_fetch(s, SONDE_PL_ENTRY, st_arg(s, 1), &cb, sizeof(cb))) {
		st_obj_begin(s);
		pr_iocb_head(s, &cb);
		st_obj_end(s);
	}
	st_sep(s);
	st_entry_end(s);
	if (!st_ok(s))
		pr_addr(s, st_arg(s, 2));
	else if (st_fetch(s, SONDE_PL_EXIT, st_arg(s, 2), &e, sizeof(e)))
		pr_io_event(s, &e);
}
