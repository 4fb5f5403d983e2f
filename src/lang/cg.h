/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Code generation state and helpers shared by cg.c (expressions and
 * statements), cgstr.c (string routines), builtins.c, funcs.c,
 * actions.c, agg.c and the providers.
 *
 * Per-CPU scratch memory (map "scratch", one PERCPU_ARRAY value) holds
 * everything larger than a register: strings, tuple keys, output records,
 * this-> variables. Offsets are fixed at compile time so the verifier sees
 * constant offsets into a map value:
 *
 *   0        8                this_base           clause_base
 *   +--------+----------------+-------------------+----------------------+
 *   | busy   | (reserved)     | this-> variables  | per-clause temporaries|
 *   +--------+----------------+-------------------+----------------------+
 *
 * "busy" is the reentrancy guard: a program that interrupts another on the
 * same CPU (an NMI-driven profile probe, say) finds it set and returns,
 * counting a drop, instead of overwriting the interrupted program's
 * temporaries. The interrupting program runs to completion before the
 * interrupted one resumes, so a plain load and store are enough.
 *
 * The BPF stack holds only the constant zero key at fp-8 and spill slots.
 */
#ifndef SONDE_LANG_CG_H
#define SONDE_LANG_CG_H

#include "lang/compile.h"

#define SCR_BUSY 0
#define SCR_THIS 16
#define FP_ZERO_KEY (-8)

/* Drop counters: the per-CPU "stats" array, one u64 each. */
enum drop_kind {
	DROP_RING, /* output ring full */
	DROP_AGG,  /* aggregation map full */
	DROP_DYN,  /* self-> / associative array map full */
	DROP_SPEC, /* no free speculation buffer */
	DROP_NEST, /* a probe fired inside another on the same CPU */
	DROP_NKINDS,
};

struct cg {
	struct lcc *cc;
	struct lprog *p;
	struct ir *ir;
	int vctx; /* the program's context pointer */
	int vscr; /* scratch base (map value pointer) */
	struct clause *c;
	struct lprobe *probes[512];
	int np;
	int soff;	/* next free scratch offset in this clause */
	int vspec;	/* speculation id of the clause, NO_REG: none */
	int lbl_end;	/* end of the current clause */
	int lbl_exit;	/* program epilogue */
	long pv[4];	/* provider state: vregs computed in prologue;
			 * pv[3]: destination of stack()/ustack() */
	int sdst, scap; /* destination offered to a string producer */
};

int cg_expr(struct cg *cg, struct node *n);
/* Branches to lbl_false when n is zero. */
void cg_cond(struct cg *cg, struct node *n, int lbl_false);
int cg_scratch(struct cg *cg, int size);    /* offset, 8-aligned */
int cg_scratch_ptr(struct cg *cg, int off); /* vreg = &scratch[off] */
int cg_call(struct cg *cg, int helper, int nargs, const int *args);
int cg_imm(struct cg *cg, int64_t v);
void cg_drop(struct cg *cg, enum drop_kind k);
/* Zeroes [ptr+off, ptr+off+size) with 8-byte stores (size % 8 == 0). */
void cg_zero(struct cg *cg, int vptr, int off, int size);
/* Stores the value of n (any type) at [vptr + off], a slot of type slot_t. */
void cg_store_to(struct cg *cg, struct node *n, int vptr, int off, struct type *slot_t);
/* Stores scalar vreg v of type t into a slot of width w. */
void cg_store_scalar(struct cg *cg, int vptr, int off, int v, int width);
/* Loads a scalar of type t from [vptr + off] into a new vreg. */
int cg_load_scalar(struct cg *cg, int vptr, int off, struct type *t);
/* Reads a scalar of type t from unchecked kernel/user memory at vaddr. */
int cg_read_scalar(struct cg *cg, int vaddr, struct type *t, int user);
/* Builds the tuple key of an aggregation or associative array in scratch;
 * returns the vreg pointing at it. */
int cg_key(struct cg *cg, struct node *args, int nkeys, struct type **kt, int *size);
/* Value pointer for key in map, inserting a zero value when absent;
 * returns a vreg, and jumps to lbl_fail (after counting a drop) when the
 * map is full. */
int cg_map_slot(struct cg *cg, int map, int vkey, enum drop_kind dk, int lbl_fail);
/* Output record: reserve space in scratch, write the header. */
int cg_rec_begin(struct cg *cg, struct action *a, int *off);
void cg_rec_submit(struct cg *cg, int vrec, int size);

/* cgstr.c: strings. vdst points at a buffer of cap bytes. */
void cg_str_copy(struct cg *cg, int vdst, int cap, int vsrc, const struct type *st);
int cg_str_cmp(struct cg *cg, int va, int vb, int cap); /* <0, 0, >0 as a vreg */
int cg_str_len(struct cg *cg, int vs, int cap);
/* Evaluates string expression n into [vdst, vdst+cap), NUL terminated. */
void cg_str_into(struct cg *cg, struct node *n, int vdst, int cap);
/* For string producers: the offered destination (zero padded by the
 * producer up to *cap), or a new scratch buffer of natural_cap. */
int cg_str_dest(struct cg *cg, int natural_cap, int *cap);

/* cgvar.c: reads (scalars as values, strings as pointers) and writes
 * (vval, or the string expression rhs) of variables. */
int cg_var_read(struct cg *cg, struct node *n);
void cg_var_write(struct cg *cg, struct node *l, int vval, struct node *rhs);

struct action *action_new(struct lcc *cc, enum akind k, struct loc loc);

#endif
