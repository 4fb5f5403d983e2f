/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The IR: BPF instructions over virtual registers. Code generation emits
 * two-address BPF operations whose register fields are virtual registers
 * (VREG(n)) or, where the ABI fixes them, physical ones (helper arguments
 * in r1-r5, the result in r0, r10 the frame pointer). regalloc.c assigns
 * physical registers by linear scan over live intervals, spilling to the
 * stack, then lowers the IR to struct bpf_insn with resolved jumps.
 */
#ifndef SONDE_LANG_IR_H
#define SONDE_LANG_IR_H

#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>

#include "lang/lex.h"

#define VREG_BASE 16
#define IS_VREG(r) ((r) >= VREG_BASE)
#define NO_REG (-1)

enum vkind {
	VK_INSN, /* i: an ordinary instruction */
	VK_JMP,	 /* i with a label target */
	VK_LABEL,
	VK_LD64,     /* dst = imm64 */
	VK_LDMAP,    /* dst = map fd (ld_imm64 with BPF_PSEUDO_MAP_FD) */
	VK_LDMAPVAL, /* dst = &map value + imm (BPF_PSEUDO_MAP_VALUE) */
	VK_CALL,     /* call helper i.imm with nargs arguments already in r1.. */
};

struct vinsn {
	enum vkind k;
	struct bpf_insn i; /* code, off, imm; registers in dst/src below */
	int dst, src;	   /* vreg or physical, NO_REG when unused */
	int label;
	int map;   /* LDMAP: index in the program's map table */
	int nargs; /* CALL */
	uint64_t imm64;
	struct loc loc;	  /* script location that produced it */
	const char *note; /* -S annotation */
};

struct ir {
	struct vinsn *v;
	int n, cap;
	int nvregs;
	int nlabels;
	struct loc loc; /* current location, stamped on emitted insns */
	const char *note;
	int stack_used; /* bytes of the frame used outside spill slots */
};

int ir_vreg(struct ir *ir);
int ir_label(struct ir *ir);
void ir_bind(struct ir *ir, int label);
void ir_free(struct ir *ir);

/* Emitters. Register arguments are vregs or physical registers. */
void ir_alu(struct ir *ir, int op, int dst, int src);	   /* dst op= src */
void ir_alui(struct ir *ir, int op, int dst, int32_t imm); /* dst op= imm */
void ir_mov(struct ir *ir, int dst, int src);
void ir_movi(struct ir *ir, int dst, int64_t imm); /* picks mov/ld64 */
void ir_ldx(struct ir *ir, int size, int dst, int src, int16_t off);
void ir_ldxs(struct ir *ir, int size, int dst, int src, int16_t off); /* sign-ext */
void ir_stx(struct ir *ir, int size, int dst, int16_t off, int src);
void ir_st(struct ir *ir, int size, int dst, int16_t off, int32_t imm);
void ir_xadd(struct ir *ir, int size, int dst, int16_t off, int src);
/* src = atomic exchange of [dst + off] with src */
void ir_xchg(struct ir *ir, int dst, int16_t off, int src);
/* src = atomic fetch-and-add of src to the 64-bit [dst + off] */
void ir_fetch_add(struct ir *ir, int dst, int16_t off, int src);
void ir_jmp(struct ir *ir, int op, int a, int b, int label); /* if a op b */
void ir_jmpi(struct ir *ir, int op, int a, int32_t imm, int label);
void ir_ja(struct ir *ir, int label);
void ir_ldmap(struct ir *ir, int dst, int map);
void ir_ldmapval(struct ir *ir, int dst, int map, int off);
void ir_call(struct ir *ir, int helper, int nargs);
void ir_exit(struct ir *ir);

struct lowered {
	struct bpf_insn *insns;
	int n;
	struct loc *locs;   /* script location per final instruction */
	const char **notes; /* -S annotation per final instruction */
	int stack;	    /* frame bytes used */
};

/* Drops the instructions no path from the entry reaches, such as the
 * arm a constant condition never takes (`1 ? a : b`, `if (0)`, a `/0/`
 * predicate): the verifier rejects a program holding one ("unreachable
 * insn"). */
void ir_prune_unreachable(struct ir *ir);

/* Register allocation and lowering; map_fds[i] patches LDMAP i. Returns 0
 * or -1 with err set (too many spills for the 512-byte BPF stack). */
int ir_lower(struct ir *ir, const int *map_fds, struct lowered *out, char *err, size_t errlen);
void lowered_free(struct lowered *l);
/* Annotated disassembly for -S. */
void ir_dump_lowered(FILE *f, const struct lowered *l, const char *const *map_names);

#endif
