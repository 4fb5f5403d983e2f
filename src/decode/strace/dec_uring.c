// SPDX-License-Identifier: GPL-2.0
/*
 * io_uring_setup, io_uring_enter and io_uring_register as strace 6.1
 * prints them. io_uring_setup's struct io_uring_params is shown twice
 * over, as strace reads it: what the caller asks for at entry, then
 * what the kernel filled in at exit, in one struct:
 *   io_uring_setup(4, {flags=0, sq_thread_cpu=0, sq_thread_idle=0,
 *                  sq_entries=4, cq_entries=8, features=..., sq_off={...},
 *                  cq_off={...}}) = 3
 */
#include <linux/io_uring.h>
#include <string.h>

#include "decode/strace/strace_int.h"

_Static_assert(sizeof(struct io_uring_params) == URING_PARAMS_SIZE, "io_uring_params");

static void pr_params_in(struct st *s, const struct io_uring_params *p)
{
	st_field(s, "flags");
	pr_flags(s, &x_uring_setup, p->flags, "IORING_SETUP_???");
	st_field(s, "sq_thread_cpu");
	pr_hex(s, p->sq_thread_cpu);
	pr_u32_field(s, "sq_thread_idle", p->sq_thread_idle);
	if (p->flags & IORING_SETUP_ATTACH_WQ) {
		st_field(s, "wq_fd");
		pr_fd(s, (int)p->wq_fd);
	}
	if (p->resv[0] || p->resv[1] || p->resv[2]) {
		st_field(s, "resv");
		st_arr_begin(s);
		for (int i = 0; i < 3; i++) {
			st_elem(s);
			pr_hex(s, p->resv[i]);
		}
		st_arr_end(s);
	}
}

static void pr_sq_off(struct st *s, const struct io_sqring_offsets *o)
{
	st_obj_begin(s);
	pr_u32_field(s, "head", o->head);
	pr_u32_field(s, "tail", o->tail);
	pr_u32_field(s, "ring_mask", o->ring_mask);
	pr_u32_field(s, "ring_entries", o->ring_entries);
	pr_u32_field(s, "flags", o->flags);
	pr_u32_field(s, "dropped", o->dropped);
	pr_u32_field(s, "array", o->array);
	st_obj_end(s);
}

static void pr_cq_off(struct st *s, const struct io_cqring_offsets *o)
{
	st_obj_begin(s);
	pr_u32_field(s, "head", o->head);
	pr_u32_field(s, "tail", o->tail);
	pr_u32_field(s, "ring_mask", o->ring_mask);
	pr_u32_field(s, "ring_entries", o->ring_entries);
	pr_u32_field(s, "overflow", o->overflow);
	pr_u32_field(s, "cqes", o->cqes);
	pr_u32_field(s, "flags", o->flags);
	st_obj_end(s);
}

static void pr_params_out(struct st *s, const struct io_uring_params *p)
{
	pr_u32_field(s, "sq_entries", p->sq_entries);
	pr_u32_field(s, "cq_entries", p->cq_entries);
	st_field(s, "features");
	pr_flags(s, &x_uring_feat, p->features, "IORING_FEAT_???");
	st_field(s, "sq_off");
	pr_sq_off(s, &p->sq_off);
	st_field(s, "cq_off");
	pr_cq_off(s, &p->cq_off);
}

void dec_io_uring_setup(struct st *s)
{
	struct io_uring_params p;
	uint64_t addr = st_arg(s, 1);

	s->rkind = R_FD;
	pr_uint(s, (uint32_t)st_arg(s, 0));
	st_sep(s);
	if (!st_fetch(s, SONDE_PL_ENTRY, addr, &p, sizeof(p)))
		return;
	st_obj_begin(s);
	pr_params_in(s, &p);
	st_entry_end(s);
	if (st_ok(s) && st_peek(s, SONDE_PL_EXIT, addr, &p, sizeof(p)))
		pr_params_out(s, &p);
	st_obj_end(s);
}

/* With IORING_ENTER_EXT_ARG the argument is a struct
 * io_uring_getevents_arg, shown by its address; else a signal mask. */
void dec_io_uring_enter(struct st *s)
{
	uint32_t flags = (uint32_t)st_arg(s, 3);

	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	pr_uint(s, (uint32_t)st_arg(s, 1));
	st_sep(s);
	pr_uint(s, (uint32_t)st_arg(s, 2));
	st_sep(s);
	pr_flags(s, &x_uring_enter, flags, "IORING_ENTER_???");
	st_sep(s);
	if (flags & IORING_ENTER_EXT_ARG)
		pr_addr(s, st_arg(s, 4));
	else
		pr_sigset(s, SONDE_PL_ENTRY, st_arg(s, 4), st_arg(s, 5));
	st_sep(s);
	pr_ulong(s, st_arg(s, 5));
}

/* An int array of n descriptors: [0, 1], cut by -s. */
static void pr_fd_array(struct st *s, uint64_t addr, uint32_t n)
{
	int fd;

	if (!n || !st_have_array(s, SONDE_PL_ENTRY, addr, n, sizeof(fd))) {
		pr_addr(s, addr);
		return;
	}
	st_arr_begin(s);
	for (uint32_t i = 0; i < n; i++) {
		if (st_array_cut(s, i)) {
			st_elem(s);
			sb_puts(s->o, "...");
			break;
		}
		st_elem(s);
		st_peek(s, SONDE_PL_ENTRY, addr + (uint64_t)i * sizeof(fd), &fd, sizeof(fd));
		pr_fd(s, fd);
	}
	st_arr_end(s);
}

static void pr_probe_op(struct st *s, const struct io_uring_probe_op *op)
{
	st_obj_begin(s);
	st_field(s, "op");
	pr_xval(s, &x_uring_ops, op->op, "IORING_OP_???");
	if (op->resv) {
		st_field(s, "resv");
		pr_hex(s, op->resv);
	}
	st_field(s, "flags");
	pr_flags(s, &x_uring_op_flags, op->flags, "IO_URING_OP_???");
	if (op->resv2) {
		st_field(s, "resv2");
		pr_hex(s, op->resv2);
	}
	st_obj_end(s);
}

/*
 * IORING_REGISTER_PROBE's struct io_uring_probe, filled by the kernel:
 * the header and ops_len of the n ops the caller made room for (256 at
 * most, else its address). strace's entry print of a probe the caller
 * did not zero is not done.
 */
static void pr_probe(struct st *s, uint64_t addr, uint32_t n)
{
	struct io_uring_probe p;
	struct io_uring_probe_op op;

	if (!st_ok(s) || n > 256 ||
	    !st_have_array(s, SONDE_PL_EXIT, addr, 1, sizeof(p) + n * sizeof(op))) {
		pr_addr(s, addr);
		return;
	}
	st_peek(s, SONDE_PL_EXIT, addr, &p, sizeof(p));
	st_obj_begin(s);
	st_field(s, "last_op");
	pr_xval(s, &x_uring_ops, p.last_op, "IORING_OP_???");
	pr_u32_field(s, "ops_len", p.ops_len);
	if (p.resv) {
		st_field(s, "resv");
		pr_hex(s, p.resv);
	}
	st_field(s, "ops");
	st_arr_begin(s);
	for (uint32_t i = 0; i < p.ops_len && i < n; i++) {
		st_elem(s);
		if (st_array_cut(s, i)) {
			sb_puts(s->o, "...");
			break;
		}
		st_peek(s, SONDE_PL_EXIT, addr + sizeof(p) + i * sizeof(op), &op, sizeof(op));
		pr_probe_op(s, &op);
	}
	st_arr_end(s);
	st_obj_end(s);
}

/* The descriptors of IORING_REGISTER_FILES and of the eventfd, the probe
 * the kernel fills; other opcodes' arguments by address. */
void dec_io_uring_register(struct st *s)
{
	uint32_t op = (uint32_t)st_arg(s, 1), n = (uint32_t)st_arg(s, 3);
	uint64_t arg = st_arg(s, 2);

	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	pr_xval(s, &x_uring_register, op, "IORING_REGISTER_???");
	st_sep(s);
	if (op == IORING_REGISTER_PROBE)
		st_entry_end(s);
	if (op == IORING_REGISTER_FILES)
		pr_fd_array(s, arg, n);
	else if (op == IORING_REGISTER_EVENTFD || op == IORING_REGISTER_EVENTFD_ASYNC)
		pr_fd_array(s, arg, 1);
	else if (op == IORING_REGISTER_PROBE)
		pr_probe(s, arg, n);
	else
		pr_addr(s, arg);
	st_sep(s);
	pr_uint(s, n);
}
