// SPDX-License-Identifier: GPL-2.0
/*
 * Decoders of futex and signal syscalls: futex (operations, wake-op
 * encodings, timeouts), rt_sigaction, rt_sigprocmask, rt_sigreturn and
 * rt_sigtimedwait. Process creation, exec, wait and the rest of process
 * control are in dec_proc.c.
 */
#include <linux/futex.h>
#include <string.h>

#include "decode/strace/strace_int.h"

/* strace names an operation by its low seven bits, the command. */
#define FUTEX_CMD(op) ((op) & 0x7f)

/* FUTEX_WAIT_PRIVATE|FUTEX_CLOCK_REALTIME, -X verbose "0x189 /\* ... *\/";
 * JSON an array of the names. */
static void pr_futex_op(struct st *s, uint32_t op)
{
	struct st_cap c;

	pr_xval(st_cap_begin(s, &c), &x_futex_op, op, "FUTEX_???");
	st_cap_flags(s, &c);
}

static void pr_bitset(struct st *s, uint32_t v)
{
	if (v != FUTEX_BITSET_MATCH_ANY || s->opt->xlat == SONDE_XLAT_RAW)
		pr_hex(s, v);
	else if (s->j)
		pr_sym(s, "FUTEX_BITSET_MATCH_ANY");
	else
		pr_symexpr(s, "0xffffffff", "FUTEX_BITSET_MATCH_ANY");
}

static void pr_wake_op(struct st *s, uint32_t v)
{
	static const char *const ops[] = { "FUTEX_OP_SET", "FUTEX_OP_ADD",
		"FUTEX_OP_OR", "FUTEX_OP_ANDN", "FUTEX_OP_XOR" };
	static const char *const cmps[] = { "FUTEX_OP_CMP_EQ",
		"FUTEX_OP_CMP_NE", "FUTEX_OP_CMP_LT", "FUTEX_OP_CMP_LE",
		"FUTEX_OP_CMP_GT", "FUTEX_OP_CMP_GE" };
	unsigned int op = (v >> 28) & 7, cmp = (v >> 24) & 15;

	if (s->j) {
		/* {"op":"FUTEX_OP_ADD","oparg":1,"cmp":"FUTEX_OP_CMP_GT",
		 *  "cmparg":0,"oparg_shift":false} */
		st_obj_begin(s);
		st_field(s, "op");
		if (op < 5)
			pr_sym(s, ops[op]);
		else
			pr_uint(s, op);
		st_field(s, "oparg");
		pr_uint(s, (v >> 12) & 0xfff);
		st_field(s, "cmp");
		if (cmp < 6)
			pr_sym(s, cmps[cmp]);
		else
			pr_uint(s, cmp);
		st_field(s, "cmparg");
		pr_uint(s, v & 0xfff);
		st_field(s, "oparg_shift");
		st_jbool(s, !!(v & (8u << 28)));
		st_obj_end(s);
		return;
	}
	sb_puts(s->o, "FUTEX_OP(");
	if (v & (8u << 28))
		sb_puts(s->o, "FUTEX_OP_OPARG_SHIFT|");
	if (op < 5)
		sb_puts(s->o, ops[op]);
	else
		sb_printf(s->o, "%u", op);
	sb_printf(s->o, ", %u, ", (v >> 12) & 0xfff);
	if (cmp < 6)
		sb_puts(s->o, cmps[cmp]);
	else
		sb_printf(s->o, "%u", cmp);
	sb_printf(s->o, ", %u)", v & 0xfff);
}

/* futex's arguments by position: which ones strace shows depends on op. */
static void futex_val(struct st *s, uint32_t val)
{
	st_sep_at(s, 2);
	pr_uint(s, val);
}

static void futex_timeout(struct st *s, uint64_t tmo)
{
	st_sep_at(s, 3);
	ps_timespec(s, SONDE_PL_ENTRY, tmo);
}

/* The requeue operations pass a count (val2) where the timeout goes. */
static void futex_val2(struct st *s, uint64_t tmo, uint64_t ua2)
{
	st_sep_at(s, 3);
	pr_uint(s, (uint32_t)tmo);
	st_sep_at(s, 4);
	pr_addr(s, ua2);
}

void dec_futex(struct st *s)
{
	uint32_t op = (uint32_t)st_arg(s, 1), val = (uint32_t)st_arg(s, 2);
	uint64_t tmo = st_arg(s, 3), ua2 = st_arg(s, 4);
	uint32_t val3 = (uint32_t)st_arg(s, 5);

	pr_addr(s, st_arg(s, 0));
	st_sep(s);
	pr_futex_op(s, op);
	switch (FUTEX_CMD(op)) {
	case FUTEX_WAIT:
		futex_val(s, val);
		futex_timeout(s, tmo);
		break;
	case FUTEX_LOCK_PI:
	case 13: /* FUTEX_LOCK_PI2 */
		futex_timeout(s, tmo);
		break;
	case FUTEX_WAIT_BITSET:
		futex_val(s, val);
		futex_timeout(s, tmo);
		st_sep_at(s, 5);
		pr_bitset(s, val3);
		break;
	case FUTEX_WAKE_BITSET:
		futex_val(s, val);
		st_sep_at(s, 5);
		pr_bitset(s, val3);
		break;
	case FUTEX_REQUEUE:
		futex_val(s, val);
		futex_val2(s, tmo, ua2);
		break;
	case FUTEX_CMP_REQUEUE:
	case FUTEX_CMP_REQUEUE_PI:
		futex_val(s, val);
		futex_val2(s, tmo, ua2);
		st_sep_at(s, 5);
		pr_uint(s, val3);
		break;
	case FUTEX_WAIT_REQUEUE_PI:
		futex_val(s, val);
		futex_timeout(s, tmo);
		st_sep_at(s, 4);
		pr_addr(s, ua2);
		break;
	case FUTEX_WAKE_OP:
		futex_val(s, val);
		futex_val2(s, tmo, ua2);
		st_sep_at(s, 5);
		pr_wake_op(s, val3);
		break;
	case FUTEX_UNLOCK_PI:
	case FUTEX_TRYLOCK_PI:
		break;
	case FUTEX_WAKE:
	case FUTEX_FD:
		futex_val(s, val);
		break;
	default:
		futex_val(s, val);
		st_sep_at(s, 3);
		pr_addr(s, tmo);
		st_sep_at(s, 4);
		pr_addr(s, ua2);
		st_sep_at(s, 5);
		pr_hex(s, val3);
		break;
	}
}

/*
 * Kernel struct sigaction: handler, flags, restorer, mask; 8 bytes each on
 * x86-64, the first three 4 bytes for an i386 caller (20 bytes; the
 * capture reads 32 all the same, events.h SONDE_SC_COMPAT).
 */
static void pr_sigaction(struct st *s, int phase, uint64_t a, uint64_t ssize)
{
	uint64_t k[4];
	uint32_t w[5];

	if (s->sc->hdr.flags & SONDE_SC_COMPAT) {
		if (!st_fetch(s, phase, a, w, sizeof(w)))
			return;
		k[0] = w[0];
		k[1] = w[1];
		k[2] = w[2];
		memcpy(&k[3], &w[3], 8);
	} else if (!st_fetch(s, phase, a, k, sizeof(k))) {
		return;
	}
	st_obj_begin(s);
	st_field(s, "sa_handler");
	if (k[0] > 1)
		pr_addr(s, k[0]);
	else if (s->j)
		pr_sym(s, k[0] ? "SIG_IGN" : "SIG_DFL");
	else
		pr_symexpr(s, k[0] ? "0x1" : "0", k[0] ? "SIG_IGN" : "SIG_DFL");
	st_field(s, "sa_mask");
	pr_sigset_bytes(s, (const uint8_t *)&k[3], ssize && ssize <= 8 ? ssize : 8);
	st_field(s, "sa_flags");
	pr_flags(s, &x_sa_flags, k[1], "SA_???");
	if (k[1] & 0x04000000) {
		st_field(s, "sa_restorer");
		pr_addr(s, k[2]);
	}
	st_obj_end(s);
}

void dec_rt_sigaction(struct st *s)
{
	uint64_t ssize = st_arg(s, 3);

	pr_sig(s, st_arg(s, 0));
	st_sep(s);
	pr_sigaction(s, SONDE_PL_ENTRY, st_arg(s, 1), ssize);
	st_sep(s);
	st_entry_end(s);
	if (st_ok(s))
		pr_sigaction(s, SONDE_PL_EXIT, st_arg(s, 2), ssize);
	else
		pr_addr(s, st_arg(s, 2));
	st_sep(s);
	pr_ulong(s, ssize);
}

void dec_rt_sigprocmask(struct st *s)
{
	uint64_t ssize = st_arg(s, 3);

	pr_xval(s, &x_sigprocmask, (uint32_t)st_arg(s, 0), "SIG_???");
	st_sep(s);
	pr_sigset(s, SONDE_PL_ENTRY, st_arg(s, 1), ssize);
	st_sep(s);
	st_entry_end(s);
	if (st_ok(s))
		pr_sigset(s, SONDE_PL_EXIT, st_arg(s, 2), ssize);
	else
		pr_addr(s, st_arg(s, 2));
	st_sep(s);
	pr_ulong(s, ssize);
}

/* " (SIGCHLD)" after the return value; JSON "result":{"signal":"SIGCHLD"}. */
static void rv_signame(struct st *s)
{
	char buf[16];
	const char *n;
	struct strbuf b;
	struct st t;

	if (!st_ok(s))
		return;
	n = st_signame((int)s->ret, buf, sizeof(buf));
	if (!n)
		return;
	st_res_begin(s, &t, &b, "signal");
	sb_puts(&b, " (");
	pr_sym(&t, n);
	sb_putc(&b, ')');
	st_res_end(s, &t, &b);
}

/*
 * rt_sigreturn takes no argument; strace shows the mask it restores, read
 * from the signal frame at the stack pointer. The capture labels that
 * memory argument 0; without it nothing is printed, as strace does when
 * the frame cannot be read. -e verbose= leaving the call out shows the
 * mask's address, as strace does.
 */
void dec_rt_sigreturn(struct st *s)
{
	for (unsigned int i = 0; i < s->c->npl; i++) {
		const struct sonde_payload *p = &s->c->pl[i];

		if (p->phase != SONDE_PL_ENTRY || p->arg != 0 ||
		    (p->flags & SONDE_PLF_UNREADABLE) || p->captured < 8)
			continue;
		st_obj_begin(s);
		st_field(s, "mask");
		if (st_deref(s))
			pr_sigset_bytes(s, p->data, 8);
		else
			pr_addr(s, p->addr);
		st_obj_end(s);
		return;
	}
}

void dec_rt_sigtimedwait(struct st *s)
{
	pr_sigset(s, SONDE_PL_ENTRY, st_arg(s, 0), st_arg(s, 3));
	st_sep(s);
	if (st_arg(s, 1))
		st_entry_end(s);
	if (st_ok(s))
		ps_siginfo(s, SONDE_PL_EXIT, st_arg(s, 1));
	else
		pr_addr(s, st_arg(s, 1));
	st_sep(s);
	ps_timespec(s, SONDE_PL_ENTRY, st_arg(s, 2));
	st_sep(s);
	pr_ulong(s, st_arg(s, 3));
	rv_signame(s);
}
