// SPDX-License-Identifier: GPL-2.0
/*
 * ptrace(2) as strace 6.1 prints it on x86-64: the request, the pid, the
 * address (a struct user offset, a regset type, a size) and the data,
 * which is the result of the PEEK and GET requests, printed when the
 * call returns: [word], the registers, a siginfo, the syscall info.
 */
#include <elf.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/user.h>

#include <sonde/syscalls.h>

#include "decode/strace/strace_int.h"

enum {
	PT_TRACEME = 0, PT_PEEKTEXT = 1, PT_PEEKDATA = 2, PT_PEEKUSER = 3, PT_POKEUSER = 6,
	PT_CONT = 7, PT_KILL = 8, PT_SINGLESTEP = 9, PT_GETREGS = 0xc, PT_SETREGS = 0xd,
	PT_GETFPREGS = 0xe, PT_SETFPREGS = 0xf, PT_ATTACH = 0x10, PT_DETACH = 0x11,
	PT_SYSCALL = 0x18, PT_SYSEMU = 0x1f, PT_SYSEMU_SINGLESTEP = 0x20, PT_SINGLEBLOCK = 0x21,
	PT_SETOPTIONS = 0x4200, PT_GETEVENTMSG = 0x4201, PT_GETSIGINFO = 0x4202,
	PT_SETSIGINFO = 0x4203, PT_GETREGSET = 0x4204, PT_SETREGSET = 0x4205, PT_SEIZE = 0x4206,
	PT_INTERRUPT = 0x4207, PT_LISTEN = 0x4208, PT_PEEKSIGINFO = 0x4209,
	PT_GETSIGMASK = 0x420a, PT_SETSIGMASK = 0x420b, PT_SECCOMP_GET_FILTER = 0x420c,
	PT_SECCOMP_GET_METADATA = 0x420d, PT_GET_SYSCALL_INFO = 0x420e, PT_OLDSETOPTIONS = 0x15,
};

XLAT_DEF(x_ptrace_req, 0, XN(0, "PTRACE_TRACEME"), XN(1, "PTRACE_PEEKTEXT"),
	 XN(2, "PTRACE_PEEKDATA"), XN(3, "PTRACE_PEEKUSER"), XN(4, "PTRACE_POKETEXT"),
	 XN(5, "PTRACE_POKEDATA"), XN(6, "PTRACE_POKEUSER"), XN(7, "PTRACE_CONT"),
	 XN(8, "PTRACE_KILL"), XN(9, "PTRACE_SINGLESTEP"), XN(0x10, "PTRACE_ATTACH"),
	 XN(0x11, "PTRACE_DETACH"), XN(0x18, "PTRACE_SYSCALL"), XN(0x4200, "PTRACE_SETOPTIONS"),
	 XN(0x4201, "PTRACE_GETEVENTMSG"), XN(0x4202, "PTRACE_GETSIGINFO"),
	 XN(0x4203, "PTRACE_SETSIGINFO"), XN(0x4204, "PTRACE_GETREGSET"),
	 XN(0x4205, "PTRACE_SETREGSET"), XN(0x4206, "PTRACE_SEIZE"),
	 XN(0x4207, "PTRACE_INTERRUPT"), XN(0x4208, "PTRACE_LISTEN"),
	 XN(0x4209, "PTRACE_PEEKSIGINFO"), XN(0x420a, "PTRACE_GETSIGMASK"),
	 XN(0x420b, "PTRACE_SETSIGMASK"), XN(0x420c, "PTRACE_SECCOMP_GET_FILTER"),
	 XN(0x420d, "PTRACE_SECCOMP_GET_METADATA"), XN(0x420e, "PTRACE_GET_SYSCALL_INFO"),
	 XN(0x420f, "PTRACE_GET_RSEQ_CONFIGURATION"), XN(0xc, "PTRACE_GETREGS"),
	 XN(0xd, "PTRACE_SETREGS"), XN(0xe, "PTRACE_GETFPREGS"), XN(0xf, "PTRACE_SETFPREGS"),
	 XN(0x12, "PTRACE_GETFPXREGS"), XN(0x13, "PTRACE_SETFPXREGS"),
	 XN(0x15, "PTRACE_OLDSETOPTIONS"), XN(0x19, "PTRACE_GET_THREAD_AREA"),
	 XN(0x1a, "PTRACE_SET_THREAD_AREA"), XN(0x1f, "PTRACE_SYSEMU"),
	 XN(0x20, "PTRACE_SYSEMU_SINGLESTEP"), XN(0x21, "PTRACE_SINGLEBLOCK"),
	 XN(0x1e, "PTRACE_ARCH_PRCTL"));
XLAT_DEF(x_ptrace_opts, 0, XN(0x1, "PTRACE_O_TRACESYSGOOD"), XN(0x2, "PTRACE_O_TRACEFORK"),
	 XN(0x4, "PTRACE_O_TRACEVFORK"), XN(0x8, "PTRACE_O_TRACECLONE"),
	 XN(0x10, "PTRACE_O_TRACEEXEC"), XN(0x20, "PTRACE_O_TRACEVFORKDONE"),
	 XN(0x40, "PTRACE_O_TRACEEXIT"), XN(0x80, "PTRACE_O_TRACESECCOMP"),
	 XN(0x100000, "PTRACE_O_EXITKILL"), XN(0x200000, "PTRACE_O_SUSPEND_SECCOMP"));
XLAT_DEF(x_nt_types, 0, XN(1, "NT_PRSTATUS"), XN(2, "NT_FPREGSET"), XN(3, "NT_PRPSINFO"),
	 XN(4, "NT_TASKSTRUCT"), XN(6, "NT_AUXV"), XN(0x200, "NT_386_TLS"),
	 XN(0x201, "NT_386_IOPERM"), XN(0x202, "NT_X86_XSTATE"));
XLAT_DEF(x_psi_op, 0, XN(0, "PTRACE_SYSCALL_INFO_NONE"), XN(1, "PTRACE_SYSCALL_INFO_ENTRY"),
	 XN(2, "PTRACE_SYSCALL_INFO_EXIT"), XN(3, "PTRACE_SYSCALL_INFO_SECCOMP"));
XLAT_DEF(x_peeksiginfo_flags, 0, XN(1, "PTRACE_PEEKSIGINFO_SHARED"));
XLAT_DEF(x_audit_arch, 0, XN(0xc000003e, "AUDIT_ARCH_X86_64"), XN(0x40000003, "AUDIT_ARCH_I386"));

/* A system call number as strace names it in structs: __NR_read (JSON:
 * the number). */
void pr_nr_sym(struct st *s, uint64_t nr)
{
	const char *name = sonde_syscall_name((uint32_t)nr);
	char num[24], sym[64];

	if (!name || s->j || nr > UINT32_MAX) {
		pr_ulong(s, nr);
		return;
	}
	snprintf(num, sizeof(num), "%llu", (unsigned long long)nr);
	snprintf(sym, sizeof(sym), "__NR_%s", name);
	pr_symexpr(s, num, sym);
}

/* struct user's members, by offset: "8*RIP", "offsetof(struct user,
 * u_debugreg)". The registers come first, 8 bytes each. */
static const char *const user_regs[] = {
	"8*R15", "8*R14", "8*R13", "8*R12", "8*RBP", "8*RBX", "8*R11", "8*R10", "8*R9", "8*R8",
	"8*RAX", "8*RCX", "8*RDX", "8*RSI", "8*RDI", "8*ORIG_RAX", "8*RIP", "8*CS", "8*EFL",
	"8*RSP", "8*SS",
};
#define UOFF(m) { offsetof(struct user, m), "offsetof(struct user, " #m ")" }
static const struct { uint64_t off; const char *name; } user_fields[] = {
	UOFF(u_fpvalid), UOFF(i387), UOFF(u_tsize), UOFF(u_dsize), UOFF(u_ssize),
	UOFF(start_code), UOFF(start_stack), UOFF(signal), UOFF(reserved), UOFF(u_ar0),
	UOFF(u_fpstate), UOFF(magic), UOFF(u_comm), UOFF(u_debugreg),
	{ sizeof(struct user), "sizeof(struct user)" },
};

/* PEEKUSER's offset: the member at or before it, "+N" past its start. */
static void pr_user_offset(struct st *s, uint64_t a)
{
	const char *name = NULL;
	uint64_t base = 0;
	char sym[96], num[24];
	size_t n = sizeof(user_fields) / sizeof(user_fields[0]);

	for (size_t i = 0; i < sizeof(user_regs) / sizeof(user_regs[0]); i++)
		if (a >= i * 8) {
			name = user_regs[i];
			base = i * 8;
		}
	for (size_t i = 0; i < n; i++)
		if (a >= user_fields[i].off) {
			name = user_fields[i].name;
			base = user_fields[i].off;
		}
	/* Nothing is named past the end of struct user. */
	if (!name || (a > base && base == user_fields[n - 1].off) || s->j) {
		pr_addr(s, a);
		return;
	}
	if (a > base)
		snprintf(sym, sizeof(sym), "%s+%llu", name, (unsigned long long)(a - base));
	else
		snprintf(sym, sizeof(sym), "%s", name);
	snprintf(num, sizeof(num), a ? "%#llx" : "NULL", (unsigned long long)a);
	pr_symexpr(s, num, sym);
}

/* struct user_regs_struct: {r15=0x..., ..., gs=0}. */
static void pr_regs(struct st *s, int phase, uint64_t a)
{
	static const char *const names[] = {
		"r15", "r14", "r13", "r12", "rbp", "rbx", "r11", "r10", "r9", "r8", "rax", "rcx",
		"rdx", "rsi", "rdi", "orig_rax", "rip", "cs", "eflags", "rsp", "ss", "fs_base",
		"gs_base", "ds", "es", "fs", "gs",
	};
	uint64_t r[27];

	if (!st_fetch(s, phase, a, r, sizeof(r)))
		return;
	st_obj_begin(s);
	for (int i = 0; i < 27; i++) {
		st_field(s, names[i]);
		pr_hex(s, r[i]);
	}
	st_obj_end(s);
}

/*
 * struct user_fpregs_struct (512 bytes): the x87 and SSE state words,
 * then st_space[32], xmm_space[64] and padding[24] as u32 arrays, cut
 * after -s members as strace cuts them.
 */
static void pr_fpregs(struct st *s, int phase, uint64_t a)
{
	struct {
		uint16_t cwd, swd, ftw, fop;
		uint64_t rip, rdp;
		uint32_t mxcsr, mxcr_mask;
		uint32_t rest[120];
	} f;

	if (!st_fetch(s, phase, a, &f, sizeof(f)))
		return;
	st_obj_begin(s);
	st_field(s, "cwd");
	pr_hex(s, f.cwd);
	st_field(s, "swd");
	pr_hex(s, f.swd);
	st_field(s, "ftw");
	pr_hex(s, f.ftw);
	st_field(s, "fop");
	pr_hex(s, f.fop);
	st_field(s, "rip");
	pr_hex(s, f.rip);
	st_field(s, "rdp");
	pr_hex(s, f.rdp);
	st_field(s, "mxcsr");
	pr_hex(s, f.mxcsr);
	st_field(s, "mxcr_mask");
	pr_hex(s, f.mxcr_mask);
	st_field(s, "st_space");
	pr_mem_array(s, phase, a + 32, 32, 4, pr_hex);
	st_field(s, "xmm_space");
	pr_mem_array(s, phase, a + 160, 64, 4, pr_hex);
	st_field(s, "padding");
	pr_mem_array(s, phase, a + 416, 24, 4, pr_hex);
	st_obj_end(s);
}

/* A word of the tracee: [0x7f...], [NULL]. */
static void ps_ptr(struct st *s, int phase, uint64_t a)
{
	uint64_t v;

	if (!st_fetch(s, phase, a, &v, sizeof(v)))
		return;
	if (s->j) {
		pr_addr(s, v);
		return;
	}
	sb_putc(s->o, '[');
	pr_addr(s, v);
	sb_putc(s->o, ']');
}

/*
 * The iovec of PTRACE_SETREGSET (phase SONDE_PL_ENTRY) or GETREGSET
 * (SONDE_PL_EXIT): the regs of NT_PRSTATUS, and for GETREGSET the length
 * before and after when the kernel changed it.
 */
static void pr_regset(struct st *s, int phase, uint64_t a, uint32_t nt)
{
	uint64_t in[2], out[2];

	if (!st_peek(s, SONDE_PL_ENTRY, a, in, sizeof(in)) ||
	    !st_peek(s, phase, a, out, sizeof(out))) {
		pr_unfetched(s, phase, a);
		return;
	}
	st_obj_begin(s);
	st_field(s, "iov_base");
	if (nt == NT_PRSTATUS && (phase == SONDE_PL_ENTRY || st_ok(s)))
		pr_regs(s, phase, out[0]);
	else
		pr_addr(s, out[0]);
	if (in[1] == out[1] || s->j) {
		pr_ulong_field(s, "iov_len", out[1]);
	} else {
		st_field(s, "iov_len");
		sb_printf(s->o, "%llu => %llu", (unsigned long long)in[1],
			  (unsigned long long)out[1]);
	}
	st_obj_end(s);
}

/* struct ptrace_syscall_info, as much of it as the call returned. */
static void pr_syscall_info(struct st *s, uint64_t a, uint64_t user_len)
{
	struct { uint8_t op, pad[3]; uint32_t arch; uint64_t ip, sp;
		 union { struct { uint64_t nr, args[6]; } entry;
			 struct { int64_t rval; uint8_t is_error; } exit; }; } i;
	uint64_t n = (uint64_t)s->ret < user_len ? (uint64_t)s->ret : user_len;

	if (n > 80)
		n = 80;
	memset(&i, 0, sizeof(i));
	if (!n || !st_peek(s, SONDE_PL_EXIT, a, &i, n)) {
		pr_addr(s, a);
		return;
	}
	st_obj_begin(s);
	st_field(s, "op");
	pr_xval(s, &x_psi_op, i.op, "PTRACE_SYSCALL_INFO_???");
	if (n >= 8) {
		st_field(s, "arch");
		pr_xval(s, &x_audit_arch, i.arch, "AUDIT_ARCH_???");
	}
	if (n >= 16) {
		st_field(s, "instruction_pointer");
		pr_addr(s, i.ip);
	}
	if (n >= 24) {
		st_field(s, "stack_pointer");
		pr_addr(s, i.sp);
	}
	if (n >= 32 && i.op == 1) {
		uint64_t nargs = (n - 32) / 8;

		st_field(s, "entry");
		st_obj_begin(s);
		st_field(s, "nr");
		pr_nr_sym(s, i.entry.nr);
		if (nargs) {
			st_field(s, "args");
			st_arr_begin(s);
			for (uint64_t k = 0; k < nargs && k < 6; k++) {
				st_elem(s);
				pr_hex(s, i.entry.args[k]);
			}
			st_arr_end(s);
		}
		st_obj_end(s);
	} else if (n >= 32 && i.op == 2) {
		st_field(s, "exit");
		st_obj_begin(s);
		pr_long_field(s, "rval", i.exit.rval);
		if (n >= 33)
			pr_u32_field(s, "is_error", i.exit.is_error);
		st_obj_end(s);
	}
	st_obj_end(s);
}

/* The address argument; 0 when the request takes none. */
/* struct ptrace_peeksiginfo_args; 0 (its address printed) if unread. */
static int pr_peeksiginfo_args(struct st *s, uint64_t a)
{
	struct { uint64_t off; uint32_t flags, nr; } p;

	if (!st_fetch(s, SONDE_PL_ENTRY, a, &p, sizeof(p)))
		return 0;
	st_obj_begin(s);
	pr_ulong_field(s, "off", p.off);
	st_field(s, "flags");
	pr_flags(s, &x_peeksiginfo_flags, p.flags, "PTRACE_PEEKSIGINFO_???");
	pr_u32_field(s, "nr", p.nr);
	st_obj_end(s);
	return 1;
}

/* The n siginfos PEEKSIGINFO copied, cut after -s of them. */
static void pr_siginfo_array(struct st *s, uint64_t a, uint64_t n)
{
	st_arr_begin(s);
	for (uint64_t i = 0; i < n; i++) {
		if (st_array_cut(s, i)) {
			if (!s->j)
				sb_puts(s->o, ", ...");
			break;
		}
		st_elem(s);
		ps_siginfo(s, SONDE_PL_EXIT, a + i * sizeof(siginfo_t));
	}
	st_arr_end(s);
}

/* Returns 0 when the data is not decoded then (shown by address). */
static int ptrace_addr(struct st *s, uint64_t req, uint64_t a)
{
	switch (req) {
	case PT_PEEKSIGINFO:
		return pr_peeksiginfo_args(s, a);
	case PT_PEEKUSER:
	case PT_POKEUSER:
		pr_user_offset(s, a);
		return 1;
	case PT_GETREGSET:
	case PT_SETREGSET:
		pr_xval(s, &x_nt_types, a, "NT_???");
		return 1;
	case PT_GETSIGMASK:
	case PT_SETSIGMASK:
	case PT_SECCOMP_GET_FILTER:
	case PT_SECCOMP_GET_METADATA:
	case PT_GET_SYSCALL_INFO:
		pr_ulong(s, a);
		return 1;
	}
	pr_addr(s, a);
	return 1;
}

/* The data: what the request passes in, or (returns 1) what it gets,
 * printed at exit. */
static int ptrace_data_in(struct st *s, uint64_t req, uint64_t a, uint64_t d)
{
	switch (req) {
	case PT_CONT: case PT_DETACH: case PT_SYSCALL: case PT_SINGLESTEP:
	case PT_SINGLEBLOCK: case PT_SYSEMU: case PT_SYSEMU_SINGLESTEP:
		pr_sig(s, d);
		return 0;
	case PT_SEIZE: case PT_SETOPTIONS: case PT_OLDSETOPTIONS:
		pr_flags(s, &x_ptrace_opts, d, "PTRACE_O_???");
		return 0;
	case PT_SETSIGINFO:
		ps_siginfo(s, SONDE_PL_ENTRY, d);
		return 0;
	case PT_SETSIGMASK:
		pr_sigset(s, SONDE_PL_ENTRY, d, a);
		return 0;
	case PT_SETREGSET:
		pr_regset(s, SONDE_PL_ENTRY, d, (uint32_t)a);
		return 0;
	case PT_SECCOMP_GET_METADATA: {
		uint64_t off;

		/* filter_off goes in, flags come out */
		if (!st_fetch(s, SONDE_PL_ENTRY, d, &off, sizeof(off)))
			return 0;
		st_obj_begin(s);
		pr_ulong_field(s, "filter_off", off);
		return 1;
	}
	case PT_PEEKDATA: case PT_PEEKTEXT: case PT_PEEKUSER: case PT_GETEVENTMSG:
	case PT_GETSIGINFO: case PT_GETSIGMASK: case PT_GET_SYSCALL_INFO: case PT_GETREGSET:
	case PT_PEEKSIGINFO: case PT_SECCOMP_GET_FILTER:
		return 1;
	}
	pr_addr(s, d);
	return 0;
}

static void ptrace_data_out(struct st *s, uint64_t req, uint64_t a, uint64_t d)
{
	switch (req) {
	case PT_PEEKDATA: case PT_PEEKTEXT: case PT_PEEKUSER:
		if (st_ok(s))
			ps_ptr(s, SONDE_PL_EXIT, d);
		else
			pr_addr(s, d);
		break;
	case PT_GETEVENTMSG:
		if (st_ok(s))
			ps_ulong(s, SONDE_PL_EXIT, d);
		else
			pr_addr(s, d);
		break;
	case PT_GETSIGINFO:
		if (st_ok(s))
			ps_siginfo(s, SONDE_PL_EXIT, d);
		else
			pr_addr(s, d);
		break;
	case PT_GETSIGMASK:
		if (st_ok(s))
			pr_sigset(s, SONDE_PL_EXIT, d, a);
		else
			pr_addr(s, d);
		break;
	case PT_GET_SYSCALL_INFO:
		if (st_ok(s))
			pr_syscall_info(s, d, a);
		else
			pr_addr(s, d);
		break;
	case PT_GETREGSET:
		pr_regset(s, SONDE_PL_EXIT, d, (uint32_t)a);
		break;
	case PT_PEEKSIGINFO:
		if (st_ok(s))
			pr_siginfo_array(s, d, (uint64_t)s->ret);
		else
			pr_addr(s, d);
		break;
	case PT_SECCOMP_GET_FILTER:
		/* the filter's instructions (strace 6.1: with -v only) */
		if (st_ok(s) && d)
			pr_seccomp_filter(s, SONDE_PL_EXIT, d, (unsigned int)s->ret);
		else
			pr_addr(s, d);
		break;
	case PT_SECCOMP_GET_METADATA: {
		uint64_t md[2];

		if (st_ok(s) && st_peek(s, SONDE_PL_EXIT, d, md, sizeof(md))) {
			st_field(s, "flags");
			pr_flags(s, &x_seccomp_filter_flags, md[1], "SECCOMP_FILTER_FLAG_???");
		}
		st_obj_end(s);
		break;
	}
	}
}

void dec_ptrace(struct st *s)
{
	uint64_t req = st_arg(s, 0), a = st_arg(s, 2), d = st_arg(s, 3);

	pr_xval(s, &x_ptrace_req, req, "PTRACE_???");
	if (req == PT_TRACEME)
		return;
	st_sep(s);
	pr_pid(s, st_arg(s, 1));
	if (req == PT_ATTACH || req == PT_INTERRUPT || req == PT_KILL || req == PT_LISTEN)
		return;
	st_sep(s);
	/* The registers take the address's place: strace prints no addr. */
	if (req == PT_GETREGS || req == PT_SETREGS || req == PT_GETFPREGS ||
	    req == PT_SETFPREGS) {
		int get = req == PT_GETREGS || req == PT_GETFPREGS;
		int phase = get ? SONDE_PL_EXIT : SONDE_PL_ENTRY;

		if (get)
			st_entry_end(s);
		if (get && !st_ok(s))
			pr_addr(s, d);
		else if (req == PT_GETREGS || req == PT_SETREGS)
			pr_regs(s, phase, d);
		else
			pr_fpregs(s, phase, d);
		return;
	}
	if (!ptrace_addr(s, req, a)) {
		st_sep(s);
		pr_addr(s, d);
		return;
	}
	st_sep(s);
	if (!ptrace_data_in(s, req, a, d))
		return;
	st_entry_end(s);
	ptrace_data_out(s, req, a, d);
}
