// SPDX-License-Identifier: GPL-2.0
/*
 * seccomp(2) and the struct sock_fprog of its filters (also prctl's
 * PR_SET_SECCOMP), as strace prints them: {len=N, filter=ADDR}, and
 * with -v the classic BPF instructions in the kernel's macro syntax:
 *   BPF_STMT(BPF_LD|BPF_W|BPF_ABS, 0x4)
 *   BPF_JUMP(BPF_JMP|BPF_K|BPF_JEQ, 0xc000003e, 0x1, 0)
 *   BPF_STMT(BPF_RET|BPF_K, SECCOMP_RET_ERRNO|0x1)
 * An instruction with a jump offset is a BPF_JUMP, any other a BPF_STMT.
 * strace shows at most BPF_MAXINSNS of them, whatever -s says. JSON has
 * the instructions as numbers: {"code":6,"jt":0,"jf":0,"k":2147418112}.
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <string.h>

#include "decode/strace/strace_int.h"

XLAT_DEF(x_bpf_class, 0, XE(BPF_LD), XE(BPF_LDX), XE(BPF_ST), XE(BPF_STX), XE(BPF_ALU),
	 XE(BPF_JMP), XE(BPF_RET), XE(BPF_MISC));
XLAT_DEF(x_bpf_size, 0, XE(BPF_W), XE(BPF_H), XE(BPF_B));
XLAT_DEF(x_bpf_mode, 0, XE(BPF_IMM), XE(BPF_ABS), XE(BPF_IND), XE(BPF_MEM), XE(BPF_LEN),
	 XE(BPF_MSH));
XLAT_DEF(x_bpf_src, 0, XE(BPF_K), XE(BPF_X));
XLAT_DEF(x_bpf_op_alu, 0, XE(BPF_ADD), XE(BPF_SUB), XE(BPF_MUL), XE(BPF_DIV), XE(BPF_OR),
	 XE(BPF_AND), XE(BPF_LSH), XE(BPF_RSH), XE(BPF_NEG), XE(BPF_MOD), XE(BPF_XOR));
XLAT_DEF(x_bpf_op_jmp, 0, XE(BPF_JA), XE(BPF_JEQ), XE(BPF_JGT), XE(BPF_JGE), XE(BPF_JSET));
XLAT_DEF(x_bpf_rval, 0, XE(BPF_K), XE(BPF_X), XE(BPF_A));
XLAT_DEF(x_bpf_miscop, 0, XE(BPF_TAX), XE(BPF_TXA));
XLAT_DEF(x_seccomp_ret, 0, XE(SECCOMP_RET_KILL_PROCESS), XE(SECCOMP_RET_KILL_THREAD),
	 XE(SECCOMP_RET_TRAP), XE(SECCOMP_RET_ERRNO), XE(SECCOMP_RET_USER_NOTIF),
	 XE(SECCOMP_RET_TRACE), XE(SECCOMP_RET_LOG), XE(SECCOMP_RET_ALLOW));
XLAT_DEF(x_seccomp_op, 0, XE(SECCOMP_SET_MODE_STRICT), XE(SECCOMP_SET_MODE_FILTER),
	 XE(SECCOMP_GET_ACTION_AVAIL), XE(SECCOMP_GET_NOTIF_SIZES));
XLAT_DEF(x_seccomp_filter_flags, 0, XN(1, "SECCOMP_FILTER_FLAG_TSYNC"),
	 XN(2, "SECCOMP_FILTER_FLAG_LOG"), XN(4, "SECCOMP_FILTER_FLAG_SPEC_ALLOW"),
	 XN(8, "SECCOMP_FILTER_FLAG_NEW_LISTENER"), XN(16, "SECCOMP_FILTER_FLAG_TSYNC_ESRCH"),
	 XN(32, "SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV"));

/* Bits of a code no field of its class names: "|0xf8 /\* BPF_??? *\/". */
static void pr_code_rest(struct st *s, unsigned int bits)
{
	if (bits)
		sb_printf(s->o, "|%#x /* BPF_??? */", bits);
}

static void pr_code_part(struct st *s, const struct xlat *x, unsigned int v)
{
	sb_putc(s->o, '|');
	pr_xval(s, x, v, "BPF_???");
}

/* The opcode by class; high bits only the classes strace checks show. */
static void pr_bpf_code(struct st *s, unsigned int code)
{
	unsigned int cls = BPF_CLASS(code), rest = code & ~cls;

	pr_xval(s, &x_bpf_class, cls, "BPF_???");
	switch (cls) {
	case BPF_ST:
	case BPF_STX:
		pr_code_rest(s, rest);
		break;
	case BPF_LD:
	case BPF_LDX:
		pr_code_part(s, &x_bpf_size, BPF_SIZE(code));
		pr_code_part(s, &x_bpf_mode, BPF_MODE(code));
		break;
	case BPF_MISC:
		pr_code_part(s, &x_bpf_miscop, BPF_MISCOP(code));
		pr_code_rest(s, rest & ~BPF_MISCOP(code));
		break;
	case BPF_ALU:
	case BPF_JMP:
		pr_code_part(s, &x_bpf_src, BPF_SRC(code));
		pr_code_part(s, cls == BPF_ALU ? &x_bpf_op_alu : &x_bpf_op_jmp, BPF_OP(code));
		break;
	case BPF_RET:
		pr_code_part(s, &x_bpf_rval, BPF_RVAL(code));
		pr_code_rest(s, rest & ~BPF_RVAL(code));
		break;
	}
}

/* A return's k: the action, then the data it carries. */
static void pr_seccomp_ret(struct st *s, uint32_t k)
{
	uint32_t action = k & SECCOMP_RET_ACTION_FULL;

	pr_xval(s, &x_seccomp_ret, action, "SECCOMP_RET_???");
	if (k & ~action)
		sb_printf(s->o, "|%#x", k & ~action);
}

static void pr_insn_text(struct st *s, const struct sock_filter *f)
{
	int jump = f->jt || f->jf;

	sb_puts(s->o, jump ? "BPF_JUMP(" : "BPF_STMT(");
	pr_bpf_code(s, f->code);
	sb_puts(s->o, ", ");
	if (!jump && BPF_CLASS(f->code) == BPF_RET)
		pr_seccomp_ret(s, f->k);
	else
		pr_hex(s, f->k);
	if (jump) {
		sb_puts(s->o, ", ");
		pr_hex(s, f->jt);
		sb_puts(s->o, ", ");
		pr_hex(s, f->jf);
	}
	sb_putc(s->o, ')');
}

static void pr_insn_json(struct st *s, const struct sock_filter *f)
{
	st_obj_begin(s);
	pr_u32_field(s, "code", f->code);
	pr_u32_field(s, "jt", f->jt);
	pr_u32_field(s, "jf", f->jf);
	pr_u32_field(s, "k", f->k);
	st_obj_end(s);
}

/* The instructions: BPF_MAXINSNS at most, then "...". */
void pr_seccomp_filter(struct st *s, int phase, uint64_t addr, unsigned int len)
{
	struct sock_filter f[BPF_MAXINSNS];
	unsigned int n = len < BPF_MAXINSNS ? len : BPF_MAXINSNS;

	if (!s->opt->verbose && !s->j) {
		pr_addr(s, addr);
		return;
	}
	if (!n || !st_have_array(s, phase, addr, n, sizeof(f[0])) ||
	    !st_fetch(s, phase, addr, f, n * sizeof(f[0]))) {
		pr_addr(s, addr);
		return;
	}
	st_arr_begin(s);
	for (unsigned int i = 0; i < n; i++) {
		st_elem(s);
		if (s->j)
			pr_insn_json(s, &f[i]);
		else
			pr_insn_text(s, &f[i]);
	}
	if (n < len && !s->j) {
		st_elem(s);
		sb_puts(s->o, "...");
	}
	st_arr_end(s);
}

void pr_seccomp_fprog(struct st *s, uint64_t addr)
{
	struct sock_fprog p;

	if (!st_fetch(s, SONDE_PL_ENTRY, addr, &p, sizeof(p)))
		return;
	st_obj_begin(s);
	pr_u32_field(s, "len", p.len);
	st_field(s, "filter");
	pr_seccomp_filter(s, SONDE_PL_ENTRY, (uint64_t)(uintptr_t)p.filter, p.len);
	st_obj_end(s);
}

static void pr_action_avail(struct st *s, uint64_t addr)
{
	uint32_t act;

	if (!st_fetch(s, SONDE_PL_ENTRY, addr, &act, sizeof(act)))
		return;
	st_arr_begin(s);
	st_elem(s);
	pr_xval(s, &x_seccomp_ret, act, "SECCOMP_RET_???");
	st_arr_end(s);
}

static void pr_notif_sizes(struct st *s, uint64_t addr)
{
	struct seccomp_notif_sizes z;

	st_entry_end(s);
	if (!st_ok(s)) {
		pr_addr(s, addr);
		return;
	}
	if (!st_fetch(s, SONDE_PL_EXIT, addr, &z, sizeof(z)))
		return;
	st_obj_begin(s);
	pr_u32_field(s, "seccomp_notif", z.seccomp_notif);
	pr_u32_field(s, "seccomp_notif_resp", z.seccomp_notif_resp);
	pr_u32_field(s, "seccomp_data", z.seccomp_data);
	st_obj_end(s);
}

void dec_seccomp(struct st *s)
{
	uint32_t op = (uint32_t)st_arg(s, 0), flags = (uint32_t)st_arg(s, 1);
	uint64_t args = st_arg(s, 2);

	pr_xval(s, &x_seccomp_op, op, "SECCOMP_SET_MODE_???");
	st_sep(s);
	if (op == SECCOMP_SET_MODE_FILTER)
		pr_flags(s, &x_seccomp_filter_flags, flags, "SECCOMP_FILTER_FLAG_???");
	else
		pr_hex(s, flags);
	st_sep(s);
	switch (op) {
	case SECCOMP_SET_MODE_FILTER:
		pr_seccomp_fprog(s, args);
		break;
	case SECCOMP_GET_ACTION_AVAIL:
		pr_action_avail(s, args);
		break;
	case SECCOMP_GET_NOTIF_SIZES:
		pr_notif_sizes(s, args);
		break;
	default:
		pr_addr(s, args);
	}
}
