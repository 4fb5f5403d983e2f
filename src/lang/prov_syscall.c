// SPDX-License-Identifier: GPL-2.0
/*
 * syscall provider: syscall::NAME:entry and syscall::NAME:return for every
 * syscall in the kernel's table (include/sonde/syscalls.h).
 *
 * All entry probes share one program on the raw tracepoint sys_enter(regs,
 * id), all return probes one on sys_exit(regs, ret): one attachment
 * instead of hundreds, and a raw tracepoint skips the perf-buffer record
 * the classic syscalls:sys_enter_* events build. Each clause filters on
 * the syscall number (a compare chain, or a bitmap in rodata for large
 * sets). Entry arguments come from the saved user registers (x86-64
 * syscall ABI: rdi rsi rdx r10 r8 r9); on return, arg0 and arg1 both hold
 * the return value, as in DTrace, and errno is -ret for ret in [-4095, -1].
 */
#include <stdlib.h>
#include <string.h>

#include <linux/types.h>
#include <sonde/syscalls.h>

#include "lang/prov.h"

/* struct pt_regs offsets on x86-64 (checked against BTF by
 * tests/unit/test_lang.c). */
static const int sc_arg_off[6] = { 112, 104, 96, 56, 72, 64 };
#define PT_ORIG_AX 120
#define PT_CS 136
#define USER_CS_64 0x33 /* __USER_CS: 64-bit code */

static int is_ret(const struct lprobe *p)
{
	return p->aux[0];
}

static int sc_match(struct lcc *cc, struct probe_desc *pd, const char *f[4], struct clause *c)
{
	unsigned int n = sonde_syscall_count();
	int found = 0;

	(void)pd;
	if (!prov_glob(f[1], "vmlinux"))
		return 0;
	for (int ret = 0; ret < 2; ret++) {
		const char *name = ret ? "return" : "entry";

		if (!prov_glob(f[3], name))
			continue;
		for (unsigned int nr = 0; nr < n; nr++) {
			const char *sc = sonde_syscall_name(nr);
			struct lprobe *lp;

			if (!sc || !prov_glob(f[2], sc))
				continue;
			lp = probe_add(cc, &prov_syscall, c);
			snprintf(lp->f[0], sizeof(lp->f[0]), "syscall");
			snprintf(lp->f[1], sizeof(lp->f[1]), "vmlinux");
			snprintf(lp->f[2], sizeof(lp->f[2]), "%s", sc);
			snprintf(lp->f[3], sizeof(lp->f[3]), "%s", name);
			snprintf(lp->attach, sizeof(lp->attach), ret ? "sys_exit" : "sys_enter");
			lp->filter = nr;
			lp->aux[0] = ret;
			found++;
		}
	}
	return found;
}

/* pv[0] = syscall number, pv[1] = regs (entry) or return value */
static void sc_prologue(struct cg *cg)
{
	int ret = cg->p->aux[0];

	cg->pv[1] = prov_raw_arg(cg, ret ? 1 : 0);
	if (!ret) {
		cg->pv[0] = prov_raw_arg(cg, 1);
	} else {
		int regs = prov_raw_arg(cg, 0), a = ir_vreg(cg->ir);

		ir_mov(cg->ir, a, regs);
		ir_alui(cg->ir, BPF_ADD, a, PT_ORIG_AX);
		cg->pv[0] = cg_read_scalar(cg, a, &t_s64, 0);
	}
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/*
 * The calls of 32-bit code are the kernel's i386 table, other numbers in
 * other registers (events.h, SONDE_SC_COMPAT): no probe of this provider
 * describes them, so they are skipped by their code segment (int $0x80
 * in 64-bit code is not told apart: docs/lang.md).
 */
static void sc_skip_i386(struct cg *cg, int lbl_skip)
{
	int a = ir_vreg(cg->ir), v;

	ir_mov(cg->ir, a, prov_raw_arg(cg, 0));
	ir_alui(cg->ir, BPF_ADD, a, PT_CS);
	v = cg_read_scalar(cg, a, &t_s64, 0);
	ir_jmpi(cg->ir, BPF_JNE, v, USER_CS_64, lbl_skip);
}

static void sc_filter(struct cg *cg, int lbl_skip)
{
	long nrs[SONDE_NR_SYSCALLS];
	int n = 0, ok = ir_label(cg->ir), total = 0;
	unsigned int count = sonde_syscall_count();

	sc_skip_i386(cg, lbl_skip);

	for (unsigned int k = 0; k < count; k++)
		total += sonde_syscall_name(k) != NULL;
	for (int i = 0; i < cg->np && n < SONDE_NR_SYSCALLS; i++)
		nrs[n++] = cg->probes[i]->filter;
	if (n >= total)
		return; /* syscall:::entry: every syscall */
	qsort(nrs, n, sizeof(long), cmp_long);
	if (n <= 8) {
		for (int i = 0; i < n; i++)
			ir_jmpi(cg->ir, BPF_JEQ, cg->pv[0], nrs[i], ok);
		ir_ja(cg->ir, lbl_skip);
	} else {
		/* bitmap[nr / 8] >> (nr % 8) & 1, with the bitmap in rodata */
		unsigned char bm[SONDE_NR_SYSCALLS / 8] = { 0 };
		int off, p = ir_vreg(cg->ir), b = ir_vreg(cg->ir), sh = ir_vreg(cg->ir);

		for (int i = 0; i < n; i++)
			bm[nrs[i] / 8] |= 1 << (nrs[i] % 8);
		off = rodata_add(cg->cc, (char *)bm, sizeof(bm), sizeof(bm));
		ir_jmpi(cg->ir, BPF_JGE, cg->pv[0], SONDE_NR_SYSCALLS, lbl_skip);
		ir_mov(cg->ir, b, cg->pv[0]);
		ir_alui(cg->ir, BPF_RSH, b, 3);
		ir_ldmapval(cg->ir, p, cg->cc->m_rodata, off);
		ir_alu(cg->ir, BPF_ADD, p, b);
		ir_ldx(cg->ir, BPF_B, b, p, 0);
		ir_mov(cg->ir, sh, cg->pv[0]);
		ir_alui(cg->ir, BPF_AND, sh, 7);
		ir_alu(cg->ir, BPF_RSH, b, sh);
		ir_alui(cg->ir, BPF_AND, b, 1);
		ir_jmpi(cg->ir, BPF_JEQ, b, 0, lbl_skip);
	}
	ir_bind(cg->ir, ok);
}

static int sc_arg(struct cg *cg, int i)
{
	int a;

	if (cg->p->aux[0])
		return i < 2 ? cg->pv[1] : cg_imm(cg, 0);
	if (i >= 6)
		return cg_imm(cg, 0);
	a = ir_vreg(cg->ir);
	ir_mov(cg->ir, a, cg->pv[1]);
	ir_alui(cg->ir, BPF_ADD, a, sc_arg_off[i]);
	return cg_read_scalar(cg, a, &t_s64, 0);
}

/* Argument types from the tracefs format of syscalls:sys_enter_NAME. */
static struct type *sc_field_type(const char *decl)
{
	int ptr = strchr(decl, '*') != NULL;

	if (ptr)
		return strstr(decl, "char") ? type_ptr(&t_s8, 1) : &t_uvoidp;
	if (strstr(decl, "unsigned") || strstr(decl, "size_t") || strstr(decl, "umode_t") ||
	    strstr(decl, "u32") || strstr(decl, "u64"))
		return strstr(decl, "int ") && !strstr(decl, "long") ? &t_u32 : &t_u64;
	if (strstr(decl, "int ") && !strstr(decl, "long"))
		return &t_s32;
	return &t_s64;
}

static struct type *sc_arg_type(struct lcc *cc, const struct lprobe *p, int i)
{
	const char *dir;
	char path[512], line[512];
	FILE *f;
	int k = -1;
	struct type *t = NULL;

	if (is_ret(p))
		return i == 0 ? &t_s64 : NULL;
	if (i >= 6 || cc->o->no_fs || !(dir = prov_tracefs_dir()))
		return i < 6 ? &t_s64 : NULL;
	snprintf(path, sizeof(path), "%s/events/syscalls/sys_enter_%s/format", dir, p->f[2]);
	f = fopen(path, "re");
	if (!f)
		return &t_s64; /* no typed format for this syscall */
	while (fgets(line, sizeof(line), f)) {
		char *fl = strstr(line, "field:");

		if (!fl)
			continue;
		if (strstr(fl, "__syscall_nr")) {
			k = 0;
			continue;
		}
		if (k < 0)
			continue;
		if (k++ == i) {
			*strchr(fl, ';') = 0;
			t = sc_field_type(fl + 6);
			break;
		}
	}
	fclose(f);
	return t;
}

static int sc_args(struct cg *cg, int i)
{
	return sc_arg(cg, i);
}

/* probefunc of a clause covering several syscalls: the name by number,
 * from the "syscall_names" array map filled at load. */
static int sc_builtin(struct cg *cg, const char *name)
{
	if (!strcmp(name, "errno")) {
		int e = ir_vreg(cg->ir), zero = ir_label(cg->ir);

		ir_movi(cg->ir, e, 0);
		if (!cg->p->aux[0])
			return e;
		ir_jmpi(cg->ir, BPF_JSGE, cg->pv[1], 0, zero);
		ir_jmpi(cg->ir, BPF_JSLT, cg->pv[1], -4095, zero);
		ir_mov(cg->ir, e, cg->pv[1]);
		ir_alui(cg->ir, BPF_NEG, e, 0);
		ir_bind(cg->ir, zero);
		return e;
	}
	if (!strcmp(name, "probefunc") && cg->np > 1) {
		int args[2], v, koff = cg_scratch(cg, 8), ok = ir_label(cg->ir);

		if (cg->cc->m_scnames < 0)
			cg->cc->m_scnames = map_add(cg->cc, "syscall_names", BPF_MAP_TYPE_ARRAY, 4,
						    32, SONDE_NR_SYSCALLS, NULL);
		cg_store_scalar(cg, cg->vscr, koff, cg->pv[0], 4);
		args[0] = ir_vreg(cg->ir);
		ir_ldmap(cg->ir, args[0], cg->cc->m_scnames);
		args[1] = cg_scratch_ptr(cg, koff);
		v = cg_call(cg, BPF_FUNC_map_lookup_elem, 2, args);
		ir_jmpi(cg->ir, BPF_JNE, v, 0, ok);
		ir_ldmapval(cg->ir, v, cg->cc->m_rodata, 0);
		ir_bind(cg->ir, ok);
		return v;
	}
	return NO_REG;
}

static int sc_which(struct cg *cg)
{
	return cg->pv[0]; /* the syscall number is the probe filter */
}

static int sc_attach(struct lcc *cc, struct lprog *p)
{
	return prov_attach_raw_tp(cc, p, p->attach);
}

const struct provider prov_syscall = {
	.name = "syscall",
	.desc = "system call entry and return",
	.type = BPF_PROG_TYPE_RAW_TRACEPOINT,
	.match = sc_match,
	.arg_type = sc_arg_type,
	.is_return = is_ret,
	.prologue = sc_prologue,
	.filter = sc_filter,
	.arg = sc_arg,
	.args = sc_args,
	.builtin = sc_builtin,
	.which = sc_which,
	.attach = sc_attach,
};
