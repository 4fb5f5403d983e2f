// SPDX-License-Identifier: GPL-2.0
/* Disassembler for -S: the lowered BPF in the kernel verifier's notation,
 * each instruction annotated with the script line:col that produced it. */
#include <stdio.h>

#include "lang/ir.h"

static const char *alu_op(int op)
{
	switch (op) {
	case BPF_ADD:
		return "+=";
	case BPF_SUB:
		return "-=";
	case BPF_MUL:
		return "*=";
	case BPF_DIV:
		return "/=";
	case BPF_OR:
		return "|=";
	case BPF_AND:
		return "&=";
	case BPF_LSH:
		return "<<=";
	case BPF_RSH:
		return ">>=";
	case BPF_MOD:
		return "%=";
	case BPF_XOR:
		return "^=";
	case BPF_MOV:
		return "=";
	case BPF_ARSH:
		return "s>>=";
	default:
		return "?=";
	}
}

static const char *jmp_op(int op)
{
	switch (op) {
	case BPF_JEQ:
		return "==";
	case BPF_JGT:
		return ">";
	case BPF_JGE:
		return ">=";
	case BPF_JSET:
		return "&";
	case BPF_JNE:
		return "!=";
	case BPF_JSGT:
		return "s>";
	case BPF_JSGE:
		return "s>=";
	case BPF_JLT:
		return "<";
	case BPF_JLE:
		return "<=";
	case BPF_JSLT:
		return "s<";
	case BPF_JSLE:
		return "s<=";
	default:
		return "?";
	}
}

static const char *sz(int size)
{
	switch (size) {
	case BPF_B:
		return "u8";
	case BPF_H:
		return "u16";
	case BPF_W:
		return "u32";
	default:
		return "u64";
	}
}

static int dis_one(FILE *f, const struct bpf_insn *b, int i, const char *const *map_names)
{
	int cls = BPF_CLASS(b->code), op = BPF_OP(b->code);

	switch (cls) {
	case BPF_ALU64:
	case BPF_ALU:
		if (op == BPF_NEG)
			fprintf(f, "r%d = -r%d", b->dst_reg, b->dst_reg);
		else if (BPF_SRC(b->code) == BPF_X)
			fprintf(f, "r%d %s %sr%d", b->dst_reg, alu_op(op),
				b->off ? "(signed) " : "", b->src_reg);
		else
			fprintf(f, "r%d %s %d", b->dst_reg, alu_op(op), b->imm);
		return 1;
	case BPF_LDX:
		fprintf(f, "r%d = *(%s%s *)(r%d %+d)", b->dst_reg,
			BPF_MODE(b->code) == 0x80 ? "s" : "", sz(BPF_SIZE(b->code)) + 1 - 1,
			b->src_reg, b->off);
		return 1;
	case BPF_STX:
		if (BPF_MODE(b->code) == BPF_ATOMIC)
			fprintf(f, "lock *(%s *)(r%d %+d) += r%d", sz(BPF_SIZE(b->code)),
				b->dst_reg, b->off, b->src_reg);
		else
			fprintf(f, "*(%s *)(r%d %+d) = r%d", sz(BPF_SIZE(b->code)), b->dst_reg,
				b->off, b->src_reg);
		return 1;
	case BPF_ST:
		fprintf(f, "*(%s *)(r%d %+d) = %d", sz(BPF_SIZE(b->code)), b->dst_reg, b->off,
			b->imm);
		return 1;
	case BPF_LD: {
		unsigned long long v =
			(unsigned int)b[0].imm | ((unsigned long long)b[1].imm << 32);

		if (b->src_reg == BPF_PSEUDO_MAP_FD)
			fprintf(f, "r%d = map[%s]", b->dst_reg,
				map_names && map_names[b->imm] ? map_names[b->imm] : "?");
		else if (b->src_reg == BPF_PSEUDO_MAP_VALUE)
			fprintf(f, "r%d = &map[%s] + %d", b->dst_reg,
				map_names && map_names[b->imm] ? map_names[b->imm] : "?", b[1].imm);
		else
			fprintf(f, "r%d = 0x%llx ll", b->dst_reg, v);
		return 2;
	}
	case BPF_JMP:
	case BPF_JMP32:
		if (op == BPF_EXIT)
			fprintf(f, "exit");
		else if (op == BPF_CALL)
			fprintf(f, "call %d", b->imm);
		else if (op == BPF_JA)
			fprintf(f, "goto %d", i + b->off + 1);
		else if (BPF_SRC(b->code) == BPF_X)
			fprintf(f, "if r%d %s r%d goto %d", b->dst_reg, jmp_op(op), b->src_reg,
				i + b->off + 1);
		else
			fprintf(f, "if r%d %s %d goto %d", b->dst_reg, jmp_op(op), b->imm,
				i + b->off + 1);
		return 1;
	default:
		fprintf(f, "(%02x)", b->code);
		return 1;
	}
}

void ir_dump_lowered(FILE *f, const struct lowered *l, const char *const *map_names)
{
	for (int i = 0; i < l->n;) {
		int n, w;

		w = fprintf(f, "  %4d: ", i);
		w = 0;
		{
			char buf[160];
			FILE *m = fmemopen(buf, sizeof(buf), "w");

			n = dis_one(m, &l->insns[i], i, map_names);
			fputc(0, m);
			fclose(m);
			w = fprintf(f, "%s", buf);
		}
		if (l->locs[i].line) {
			fprintf(f, "%*s; %d:%d", w < 44 ? 44 - w : 1, "", l->locs[i].line,
				l->locs[i].col);
			if (l->notes[i])
				fprintf(f, " %s", l->notes[i]);
		} else if (l->notes[i]) {
			fprintf(f, "%*s; %s", w < 44 ? 44 - w : 1, "", l->notes[i]);
		}
		fputc('\n', f);
		i += n;
	}
}
