// SPDX-License-Identifier: GPL-2.0
/*
 * Speculations: the kernel side of speculation(), commit() and discard(),
 * and the D rules on speculate() in a clause.
 *
 * Speculative records go to the output rings at once, tagged with their
 * speculation id; user space holds them (rt.c) until the commit() or
 * discard() record of that id arrives. The kernel only owns the ids, in
 * the "specs" array map, so that commit() and discard() free a buffer at
 * once, as in DTrace: a speculate-at-entry, commit-at-return loop needs a
 * single buffer however late user space reads the rings.
 *
 *            +0       +8
 *           +--------+--------+
 *   specs[0]|  gen   |        |  speculation() fetch-adds 1: a new id each time
 *           +--------+--------+
 *   specs[k]| users  | owner  |  k = 1..nspec
 *           +--------+--------+
 *
 *   users  speculation() fetch-adds 1 and owns slot k when it read 0;
 *          otherwise it adds -1 back (a slot being tried by another CPU
 *          may be skipped, never shared). Releasing subtracts the owner's 1.
 *   owner  the id owning slot k, 0 when free: (gen << 5 | k) & INT32_MAX,
 *          so k is id & 31 (nspec <= 16) and ids of one slot differ.
 *          commit() and discard() release the slot only when they take
 *          their own id out of it: a second commit() of an id does nothing.
 *
 *   ring record: | action id (4) | speculation id (4) | data ...
 *
 * User space keys held records by the whole id: the records of a slot's
 * next owner, maybe read first from another CPU's ring, never join those
 * of the previous owner, whose commit() may still be in a ring. Committed
 * data is thus safe from the moment the slot is free.
 *
 * Why counts and exchanges: BPF_CMPXCHG works on the fixed R0, which the
 * IR cannot express; a fetch-add on a count gives exclusive ownership all
 * the same. Releasing reads the owner before exchanging it, so a stale
 * commit() of an older id never touches the new owner; the one window
 * left is two CPUs committing the same id at once while a third claims
 * the slot between them: the late one puts the owner it took back.
 */
#include <string.h>

#include "lang/builtins.h"
#include "lang/cg.h"

#define SPEC_SLOT_BITS 5
#define SPEC_USERS 0
#define SPEC_OWNER 8

int spec_check_speculation(struct lcc *cc, struct clause *c, struct node *n)
{
	(void)c;
	n->t = &t_s32;
	if (cc->m_spec < 0)
		cc->m_spec =
			map_add(cc, "specs", BPF_MAP_TYPE_ARRAY, 4, 16, cc->o->nspec + 1, "nspec");
	return 0;
}

/* Pointer to specs[vk], the key stored in scratch at koff; jumps to fail
 * when the lookup fails (a key past nspec). */
static int spec_slot(struct cg *cg, int koff, int vk, int fail)
{
	int args[2], v;

	ir_stx(cg->ir, BPF_W, cg->vscr, koff, vk);
	args[0] = ir_vreg(cg->ir);
	ir_ldmap(cg->ir, args[0], cg->cc->m_spec);
	args[1] = cg_scratch_ptr(cg, koff);
	v = cg_call(cg, BPF_FUNC_map_lookup_elem, 2, args);
	ir_jmpi(cg->ir, BPF_JEQ, v, 0, fail);
	return v;
}

/* Tries slot k: when no one uses it, id = base | k becomes its owner and
 * the code jumps to done. */
static void spec_try_slot(struct cg *cg, int koff, int k, int base, int id, int done)
{
	int skip = ir_label(cg->ir), busy = ir_label(cg->ir);
	int v = spec_slot(cg, koff, cg_imm(cg, k), skip), users = cg_imm(cg, 1);

	ir_fetch_add(cg->ir, v, SPEC_USERS, users);
	ir_jmpi(cg->ir, BPF_JNE, users, 0, busy);
	ir_mov(cg->ir, id, base);
	ir_alui(cg->ir, BPF_OR, id, k);
	ir_stx(cg->ir, BPF_DW, v, SPEC_OWNER, id);
	ir_ja(cg->ir, done);
	ir_bind(cg->ir, busy);
	ir_xadd(cg->ir, BPF_DW, v, SPEC_USERS, cg_imm(cg, -1));
	ir_bind(cg->ir, skip);
}

/* speculation(): a free slot's new id, or 0 (counted as a drop). */
int spec_emit_claim(struct cg *cg, struct node *n)
{
	int id = cg_imm(cg, 0), done = ir_label(cg->ir), fail = ir_label(cg->ir);
	int koff = cg_scratch(cg, 8), base = cg_imm(cg, 1), gen;

	(void)n;
	gen = spec_slot(cg, koff, cg_imm(cg, 0), fail);
	ir_fetch_add(cg->ir, gen, SPEC_USERS, base);
	ir_alui(cg->ir, BPF_LSH, base, SPEC_SLOT_BITS);
	ir_alui(cg->ir, BPF_AND, base, INT32_MAX & ~((1 << SPEC_SLOT_BITS) - 1));
	for (int k = 1; k <= cg->cc->o->nspec; k++)
		spec_try_slot(cg, koff, k, base, id, done);
	ir_bind(cg->ir, fail);
	cg_drop(cg, DROP_SPEC);
	ir_bind(cg->ir, done);
	return id;
}

/* Frees the slot of id when id still owns it. */
static void spec_release(struct cg *cg, int id)
{
	int skip = ir_label(cg->ir), lost = ir_label(cg->ir);
	int k = ir_vreg(cg->ir), owner = ir_vreg(cg->ir), v;

	ir_mov(cg->ir, k, id);
	ir_alui(cg->ir, BPF_AND, k, (1 << SPEC_SLOT_BITS) - 1);
	ir_jmpi(cg->ir, BPF_JEQ, k, 0, skip); /* 0 and the gen slot */
	v = spec_slot(cg, cg_scratch(cg, 8), k, skip);
	ir_ldx(cg->ir, BPF_DW, owner, v, SPEC_OWNER);
	ir_jmp(cg->ir, BPF_JNE, owner, id, skip);
	ir_movi(cg->ir, owner, 0);
	ir_xchg(cg->ir, v, SPEC_OWNER, owner);
	ir_jmp(cg->ir, BPF_JNE, owner, id, lost);
	ir_xadd(cg->ir, BPF_DW, v, SPEC_USERS, cg_imm(cg, -1));
	ir_ja(cg->ir, skip);
	/* a concurrent commit() of id freed it and a new owner came: put it back */
	ir_bind(cg->ir, lost);
	ir_jmpi(cg->ir, BPF_JEQ, owner, 0, skip);
	ir_stx(cg->ir, BPF_DW, v, SPEC_OWNER, owner);
	ir_bind(cg->ir, skip);
}

/* commit(id), discard(id): the record tells user space what to do with
 * the held records of id; the slot is free again at once. */
int spec_emit_release(struct cg *cg, struct node *n)
{
	struct action *act = &cg->cc->acts[n->aux];
	int id = cg_expr(cg, n->args), off, vr = cg_rec_begin(cg, act, &off);

	cg_store_scalar(cg, vr, act->args[0].off, id, 8);
	cg_rec_submit(cg, vr, act->size);
	if (cg->cc->m_spec >= 0)
		spec_release(cg, id);
	return NO_REG;
}

/* The statements of a clause seen so far, in order. */
struct spec_seen {
	int speculate, commit, rec;
};

static int spec_refuse(struct lcc *cc, const struct node *n, const char *why)
{
	cc_error(cc, n->loc, "%s() may not follow %s", n->name, why);
	return -1;
}

/* An action statement against the DTrace Guide's rules: speculate() comes
 * first and once; exit() and aggregations are never speculative (a
 * discarded speculation would swallow exit() and the script would never
 * end); a clause with commit() records no data. */
static int spec_check_call(struct lcc *cc, const struct node *n, struct spec_seen *seen)
{
	int rec = n->fn->action ? strcmp(n->name, "speculate") && strcmp(n->name, "commit") &&
					  strcmp(n->name, "discard")
				: n->t == &t_void;

	if (!strcmp(n->name, "speculate")) {
		if (seen->speculate)
			return spec_refuse(cc, n, "speculate(): one speculation per clause");
		if (seen->rec)
			return spec_refuse(cc, n, "data-recording actions");
		seen->speculate = 1;
	} else if (!strcmp(n->name, "commit") || !strcmp(n->name, "discard")) {
		if (seen->speculate)
			return spec_refuse(cc, n, "speculate()");
		if (n->name[0] == 'c' && seen->rec)
			return spec_refuse(cc, n, "data-recording actions");
		seen->commit |= n->name[0] == 'c';
	} else if (!strcmp(n->name, "exit") && seen->speculate) {
		return spec_refuse(cc, n, "speculate(): exit() is never speculative");
	}
	if (rec && seen->commit) {
		cc_error(cc, n->loc,
			 "%s() may not follow commit(): a clause that commits "
			 "records no data",
			 n->name);
		return -1;
	}
	seen->rec |= rec;
	return 0;
}

static int spec_check_stmt(struct lcc *cc, const struct node *s, struct spec_seen *seen)
{
	const struct node *e = s ? s->l : NULL;

	if (!s)
		return 0;
	if (s->k == N_BLOCK) {
		for (const struct node *x = s->args; x; x = x->next)
			if (spec_check_stmt(cc, x, seen))
				return -1;
		return 0;
	}
	if (s->k == N_IF)
		return spec_check_stmt(cc, s->r, seen) || spec_check_stmt(cc, s->x, seen) ? -1 : 0;
	if (s->k != N_EXPR)
		return 0;
	if (e->k == N_ASSIGN && e->l->k == N_AGG && seen->speculate) {
		cc_error(cc, e->loc,
			 "aggregations may not follow speculate(): they are never speculative");
		return -1;
	}
	return e->k == N_CALL && e->fn ? spec_check_call(cc, e, seen) : 0;
}

int spec_check_clause(struct lcc *cc, struct clause *c)
{
	struct spec_seen seen = { 0 };

	return spec_check_stmt(cc, c->body, &seen);
}
