// SPDX-License-Identifier: GPL-2.0
/* Value functions: copyin, copyinstr, strlen, strjoin, basename,
 * speculation, stack, ustack. One table entry each. */
#include <string.h>

#include "lang/agg.h"
#include "lang/builtins.h"

static const char *tname(const struct type *t)
{
	static char buf[160];

	return type_name(t, buf, sizeof(buf));
}

static int need_int(struct lcc *cc, struct node *a, const char *fn, int k)
{
	if (type_is_scalar(a->t))
		return 0;
	cc_error(cc, a->loc, "argument %d of %s() must be an integer or pointer, not %s", k, fn,
		 tname(a->t));
	return -1;
}

static int need_str(struct lcc *cc, struct node *a, const char *fn, int k)
{
	if (a->t->k == TY_STR)
		return 0;
	cc_error(cc, a->loc, "argument %d of %s() must be a string, not %s", k, fn, tname(a->t));
	return -1;
}

/* Values computed in loops are parked in scratch and reloaded: the
 * verifier does not track map memory, so the reloaded value carries no
 * per-iteration history and states after the loop prune. The clamp
 * that follows gives it the bounds the helpers need. */
static int forget(struct cg *cg, int v, int max)
{
	int off = cg_scratch(cg, 8), r, ok = ir_label(cg->ir);

	cg_store_scalar(cg, cg->vscr, off, v, 8);
	r = cg_load_scalar(cg, cg->vscr, off, &t_u64);
	ir_jmpi(cg->ir, BPF_JLE, r, max, ok);
	ir_movi(cg->ir, r, max);
	ir_bind(cg->ir, ok);
	return r;
}

/* copyinstr(uaddr [, maxlen]): a NUL-terminated string from user memory. */
static int check_copyinstr(struct lcc *cc, struct clause *c, struct node *n)
{
	(void)c;
	if (need_int(cc, n->args, "copyinstr", 1) ||
	    (n->nargs == 2 && need_int(cc, n->args->next, "copyinstr", 2)))
		return -1;
	n->t = type_str(cc->o->strsize, 1);
	return 0;
}

static int emit_copyinstr(struct cg *cg, struct node *n)
{
	int cap, d = cg_str_dest(cg, n->t->size, &cap), addr, max = NO_REG, args[3];

	/* the destination is taken before the arguments are evaluated, so
	 * a producer among them cannot claim it */
	addr = cg_expr(cg, n->args);
	if (n->nargs == 2)
		max = cg_expr(cg, n->args->next);
	cg_zero(cg, d, 0, (cap + 7) & ~7);
	args[0] = d;
	if (max != NO_REG) {
		int ok = ir_label(cg->ir), m = ir_vreg(cg->ir);

		/* size in [1, cap]: the verifier needs both bounds */
		ir_mov(cg->ir, m, max);
		ir_jmpi(cg->ir, BPF_JLE, m, cap, ok);
		ir_movi(cg->ir, m, cap);
		ir_bind(cg->ir, ok);
		ok = ir_label(cg->ir);
		ir_jmpi(cg->ir, BPF_JGE, m, 1, ok);
		ir_movi(cg->ir, m, 1);
		ir_bind(cg->ir, ok);
		args[1] = m;
	} else {
		args[1] = cg_imm(cg, cap);
	}
	args[2] = addr;
	cg_fault_if(cg, cg_call(cg, BPF_FUNC_probe_read_user_str, 3, args), FLT_BADADDR, addr);
	return d;
}

/* copyin(uaddr, size): copies size bytes of user memory into scratch and
 * returns a pointer to the copy. */
static int check_copyin(struct lcc *cc, struct clause *c, struct node *n)
{
	struct node *sz = n->args->next;

	(void)c;
	if (need_int(cc, n->args, "copyin", 1))
		return -1;
	if (!sz->is_const || sz->cval <= 0 || sz->cval > 1024) {
		cc_error(cc, sz->loc,
			 "the size given to copyin() must be a constant from 1 to 1024");
		return -1;
	}
	n->t = &t_voidp;
	return 0;
}

static int emit_copyin(struct cg *cg, struct node *n)
{
	int size = (int)n->args->next->cval, off = cg_scratch(cg, size), args[3];

	args[2] = cg_expr(cg, n->args);
	args[0] = cg_scratch_ptr(cg, off);
	args[1] = cg_imm(cg, size);
	cg_fault_if(cg, cg_call(cg, BPF_FUNC_probe_read_user, 3, args), FLT_BADADDR, args[2]);
	return cg_scratch_ptr(cg, off);
}

static int check_strlen(struct lcc *cc, struct clause *c, struct node *n)
{
	(void)c;
	if (need_str(cc, n->args, "strlen", 1))
		return -1;
	n->t = &t_u64;
	return 0;
}

static int emit_strlen(struct cg *cg, struct node *n)
{
	return cg_str_len(cg, cg_expr(cg, n->args), n->args->t->size);
}

static int check_strjoin(struct lcc *cc, struct clause *c, struct node *n)
{
	(void)c;
	if (need_str(cc, n->args, "strjoin", 1) || need_str(cc, n->args->next, "strjoin", 2))
		return -1;
	n->t = type_str(cc->o->strsize, 1);
	return 0;
}

/* tmp[0..2cap) = 0; tmp = a; len = strlen(a); read_str(tmp + len, cap - len, b).
 * tmp is twice the capacity so that tmp + len + (cap - len) is provably in
 * bounds for any len the verifier allows in [0, cap-1]. */
static int emit_strjoin(struct cg *cg, struct node *n)
{
	int dcap, d = cg_str_dest(cg, n->t->size, &dcap);
	int cap = n->t->size, toff = cg_scratch(cg, 2 * cap), tmp = cg_scratch_ptr(cg, toff);
	int a = cg_expr(cg, n->args), b, len, p, size, args[3];

	cg_zero(cg, cg->vscr, toff, 2 * ((cap + 7) & ~7));
	cg_str_copy(cg, tmp, cap, a, n->args->t);
	len = forget(cg, cg_str_len(cg, tmp, cap), cap - 1);
	b = cg_expr(cg, n->args->next);
	p = ir_vreg(cg->ir);
	ir_mov(cg->ir, p, tmp);
	ir_alu(cg->ir, BPF_ADD, p, len);
	size = cg_imm(cg, cap);
	ir_alu(cg->ir, BPF_SUB, size, len);
	args[0] = p;
	args[1] = size;
	args[2] = b;
	cg_call(cg, BPF_FUNC_probe_read_kernel_str, 3, args);
	cg_str_copy(cg, d, dcap, tmp, type_str(cap, 1));
	return d;
}

static int check_basename(struct lcc *cc, struct clause *c, struct node *n)
{
	(void)c;
	if (need_str(cc, n->args, "basename", 1))
		return -1;
	n->t = type_str(n->args->t->size, 1);
	return 0;
}

/*
 * basename(s), as D defines it: "/a/b/" -> "b", "/" -> "/", "" -> ".".
 *	start = end = 0; prev = '/'
 *	for (i = 0; i < cap && s[i]; i++) {
 *		if (s[i] != '/') { if (prev == '/') start = i; end = i + 1; }
 *		prev = s[i];
 *	}
 * start/end/prev live in scratch, not registers (see forget()).
 */
static int emit_basename(struct cg *cg, struct node *n)
{
	struct ir *ir = cg->ir;
	int cap = n->args->t->size, s = ir_vreg(ir), i = ir_vreg(ir), c = ir_vreg(ir);
	int t = ir_vreg(ir), p = ir_vreg(ir);
	int st = cg_scratch(cg, 24), toff = cg_scratch(cg, cap), tmp;
	int loop = ir_label(ir), done = ir_label(ir), slash = ir_label(ir), next = ir_label(ir);
	int nonempty = ir_label(ir), out = ir_label(ir), dot = ir_label(ir);
	int start, end, len, args[3], dcap, d = cg_str_dest(cg, cap, &dcap);

	ir_mov(ir, s, cg_expr(cg, n->args));
	ir_st(ir, BPF_DW, cg->vscr, st, 0);	   /* start */
	ir_st(ir, BPF_DW, cg->vscr, st + 8, 0);	   /* end */
	ir_st(ir, BPF_DW, cg->vscr, st + 16, '/'); /* prev */
	ir_movi(ir, i, 0);
	ir_bind(ir, loop);
	ir_jmpi(ir, BPF_JGE, i, cap, done);
	ir_mov(ir, p, s);
	ir_alu(ir, BPF_ADD, p, i);
	ir_ldx(ir, BPF_B, c, p, 0);
	ir_jmpi(ir, BPF_JEQ, c, 0, done);
	ir_jmpi(ir, BPF_JEQ, c, '/', slash);
	ir_ldx(ir, BPF_DW, t, cg->vscr, st + 16);
	ir_jmpi(ir, BPF_JNE, t, '/', next);
	ir_stx(ir, BPF_DW, cg->vscr, st, i);
	ir_bind(ir, next);
	ir_mov(ir, t, i);
	ir_alui(ir, BPF_ADD, t, 1);
	ir_stx(ir, BPF_DW, cg->vscr, st + 8, t);
	ir_bind(ir, slash);
	ir_stx(ir, BPF_DW, cg->vscr, st + 16, c);
	ir_alui(ir, BPF_ADD, i, 1);
	ir_ja(ir, loop);
	ir_bind(ir, done);

	tmp = cg_scratch_ptr(cg, toff);
	cg_zero(cg, cg->vscr, toff, (cap + 7) & ~7);
	end = forget(cg, cg_load_scalar(cg, cg->vscr, st + 8, &t_u64), cap - 1);
	ir_jmpi(ir, BPF_JNE, end, 0, nonempty);
	/* empty or only slashes */
	ir_ldx(ir, BPF_B, c, s, 0);
	ir_jmpi(ir, BPF_JNE, c, '/', dot);
	ir_st(ir, BPF_B, tmp, 0, '/');
	ir_ja(ir, out);
	ir_bind(ir, dot);
	ir_st(ir, BPF_B, tmp, 0, '.');
	ir_ja(ir, out);
	ir_bind(ir, nonempty);
	start = forget(cg, cg_load_scalar(cg, cg->vscr, st, &t_u64), cap - 1);
	len = ir_vreg(ir);
	ir_mov(ir, len, end);
	ir_alu(ir, BPF_SUB, len, start);
	len = forget(cg, len, cap - 1);
	ir_mov(ir, p, s);
	ir_alu(ir, BPF_ADD, p, start);
	args[0] = tmp;
	args[1] = len;
	args[2] = p;
	cg_call(cg, BPF_FUNC_probe_read_kernel, 3, args);
	ir_bind(ir, out);
	cg_str_copy(cg, d, dcap, tmp, type_str(cap, 1));
	return d;
}

/* usym(a), ufunc(a), umod(a), uaddr(a) for user addresses, sym(a),
 * func(a), mod(a) for kernel ones: the address, symbolised in user space
 * (sym.c). As keys, user space merges addresses of one symbol. */
static int check_sym(struct lcc *cc, struct clause *c, struct node *n)
{
	static struct type syms[] = {
		{ .k = TY_SYM, .size = 8, .user = 1, .fmt = TF_SYMBOL, .name = "usym" },
		{ .k = TY_SYM, .size = 8, .user = 1, .fmt = TF_MODULE, .name = "umod" },
		{ .k = TY_SYM, .size = 8, .fmt = TF_SYMBOL, .name = "sym" },
		{ .k = TY_SYM, .size = 8, .fmt = TF_MODULE, .name = "mod" },
	};
	int user = n->name[0] == 'u';
	const char *base = n->name + user;

	(void)c;
	if (need_int(cc, n->args, n->name, 1))
		return -1;
	if (!strcmp(base, "addr"))
		n->t = &t_usymoff;
	else
		n->t = &syms[2 * !user + !strcmp(base, "mod")];
	return 0;
}

static int emit_sym(struct cg *cg, struct node *n)
{
	return cg_expr(cg, n->args);
}

static int check_stack(struct lcc *cc, struct clause *c, struct node *n)
{
	(void)c;
	if (n->nargs && !n->args->is_const) {
		cc_error(cc, n->args->loc, "the depth given to %s() must be a constant", n->name);
		return -1;
	}
	if (n->nargs && (n->args->cval < 1 || n->args->cval > STACK_DEPTH)) {
		cc_error(cc, n->args->loc, "%s() depth must be 1 to %d", n->name, STACK_DEPTH);
		return -1;
	}
	n->t = n->name[0] == 'u' ? &t_ustack : &t_stack;
	cc->uses_ustack |= n->name[0] == 'u';
	if (n->aux) { /* a statement: prints the stack */
		struct action *a = action_new(cc, n->name[0] == 'u' ? A_USTACK : A_STACK, n->loc);

		a->args[0].t = n->t;
		a->args[0].off = REC_HDR;
		a->nargs = 1;
		a->size = REC_HDR + n->t->size;
		n->aux = a->id + 1;
		n->t = &t_void;
	}
	return 0;
}

/* Stacks are bpf_get_stack() into a zeroed buffer (zeroed so two equal
 * stacks are equal keys). ustack() records the pid first so user space
 * can symbolise against that process's mappings. */
static void stack_into(struct cg *cg, struct node *n, int d)
{
	int user = n->name[0] == 'u', depth = n->nargs ? (int)n->args->cval : STACK_DEPTH;
	int buf = ir_vreg(cg->ir), args[4];

	cg_zero(cg, d, 0, user ? 8 * (STACK_DEPTH + 1) : 8 * STACK_DEPTH);
	ir_mov(cg->ir, buf, d);
	if (user) {
		int pid = cg_call(cg, BPF_FUNC_get_current_pid_tgid, 0, NULL);

		ir_alui(cg->ir, BPF_RSH, pid, 32);
		ir_stx(cg->ir, BPF_DW, d, 0, pid);
		ir_alui(cg->ir, BPF_ADD, buf, 8);
	}
	args[0] = cg->vctx;
	args[1] = buf;
	args[2] = cg_imm(cg, 8 * depth);
	args[3] = cg_imm(cg, user ? BPF_F_USER_STACK : 0);
	cg_call(cg, BPF_FUNC_get_stack, 4, args);
}

static int emit_stack(struct cg *cg, struct node *n)
{
	int d;

	if (n->aux) {
		struct action *a = &cg->cc->acts[n->aux - 1];
		int off, vr = cg_rec_begin(cg, a, &off);

		d = ir_vreg(cg->ir);
		ir_mov(cg->ir, d, vr);
		ir_alui(cg->ir, BPF_ADD, d, REC_HDR);
		stack_into(cg, n, d);
		cg_rec_submit(cg, vr, a->size);
		return NO_REG;
	}
	if (cg->pv[3] != NO_REG) {
		d = cg->pv[3];
		cg->pv[3] = NO_REG;
	} else {
		d = cg_scratch_ptr(cg, cg_scratch(cg, n->t->size));
	}
	stack_into(cg, n, d);
	return d;
}

const struct func funcs_values[] = {
	{ .name = "copyinstr",
	  .min = 1,
	  .max = 2,
	  .check = check_copyinstr,
	  .emit = emit_copyinstr,
	  .strdst = 1 },
	{ .name = "copyin", .min = 2, .max = 2, .check = check_copyin, .emit = emit_copyin },
	{ .name = "strlen", .min = 1, .max = 1, .check = check_strlen, .emit = emit_strlen },
	{ .name = "strjoin",
	  .min = 2,
	  .max = 2,
	  .check = check_strjoin,
	  .emit = emit_strjoin,
	  .strdst = 1 },
	{ .name = "basename",
	  .min = 1,
	  .max = 1,
	  .check = check_basename,
	  .emit = emit_basename,
	  .strdst = 1 },
	{ .name = "speculation",
	  .min = 0,
	  .max = 0,
	  .check = spec_check_speculation,
	  .emit = spec_emit_claim },
	{ .name = "stack", .min = 0, .max = 1, .check = check_stack, .emit = emit_stack },
	{ .name = "usym", .min = 1, .max = 1, .check = check_sym, .emit = emit_sym },
	{ .name = "ufunc", .min = 1, .max = 1, .check = check_sym, .emit = emit_sym },
	{ .name = "umod", .min = 1, .max = 1, .check = check_sym, .emit = emit_sym },
	{ .name = "uaddr", .min = 1, .max = 1, .check = check_sym, .emit = emit_sym },
	{ .name = "sym", .min = 1, .max = 1, .check = check_sym, .emit = emit_sym },
	{ .name = "func", .min = 1, .max = 1, .check = check_sym, .emit = emit_sym },
	{ .name = "mod", .min = 1, .max = 1, .check = check_sym, .emit = emit_sym },
	{ .name = "ustack", .min = 0, .max = 1, .check = check_stack, .emit = emit_stack },
	{ .name = NULL },
};

const struct func *func_find(const char *name)
{
	const struct func *tabs[] = { funcs_values, funcs_actions, funcs_aggs };

	for (size_t t = 0; t < 3; t++)
		for (const struct func *f = tabs[t]; f->name; f++)
			if (!strcmp(f->name, name))
				return f;
	return NULL;
}
