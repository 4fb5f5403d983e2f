// SPDX-License-Identifier: GPL-2.0
/*
 * Formatting one call: "name(args) = ret", driven by the signature table.
 * Arguments of kind K_OUT (structs and buffers the kernel fills) print as
 * their address when the call failed, as strace does, because the memory
 * then holds nothing the call produced.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

#include <sonde/render.h>

#include "decode/strace/strace_int.h"

void st_print_arg(struct st *s, const struct st_arg *a, int i)
{
	uint64_t v = st_arg(s, i);
	int ok = st_ok(s);

	switch (a->kind) {
	case K_INT: pr_int(s, v); break;
	case K_PID: pr_pid(s, v); break;
	case K_UINT: pr_uint(s, v); break;
	case K_LONG: pr_long(s, v); break;
	case K_ULONG: pr_ulong(s, v); break;
	case K_HEX: pr_hex(s, v); break;
	case K_PTR: pr_addr(s, v); break;
	case K_OCT: pr_oct(s, v); break;
	case K_MODE: pr_mode_t(s, v); break;
	case K_FD: pr_fd(s, (int)v); break;
	case K_DIRFD: pr_dirfd(s, v); break;
	case K_PATH: pr_path(s, v); break;
	case K_STR: pr_cstr(s, SONDE_PL_ENTRY, v); break;
	case K_BUFI: pr_buf(s, SONDE_PL_ENTRY, v, st_arg(s, a->aux), 0); break;
	case K_BUFO: pr_buf_ret(s, v); break;
	case K_FLAGS:
		pr_flags(s, a->x, a->aux == 64 ? v : (uint32_t)v, NULL);
		break;
	case K_XVAL: pr_xval(s, a->x, (uint32_t)v, NULL); break;
	case K_SIG: pr_sig(s, v); break;
	case K_UID: pr_id(s, (uint32_t)v); break;
	case K_OFF: pr_long(s, v); break;
	case K_IN: a->fn(s, SONDE_PL_ENTRY, v); break;
	case K_OUT:
		if (ok)
			a->fn(s, SONDE_PL_EXIT, v);
		else
			pr_addr(s, v);
		break;
	case K_IOVI:
		pr_iov(s, SONDE_PL_ENTRY, v, st_arg(s, a->aux), UINT64_MAX);
		break;
	case K_IOVO:
		/* strace shows a failed read's vector too, buffers as addresses */
		pr_iov(s, SONDE_PL_EXIT, v, st_arg(s, a->aux), ok ? (uint64_t)s->ret : IOV_ADDRS);
		break;
	case K_SSETI: pr_sigset(s, SONDE_PL_ENTRY, v, st_arg(s, a->aux)); break;
	case K_SSETO:
		if (ok)
			pr_sigset(s, SONDE_PL_EXIT, v, st_arg(s, a->aux));
		else
			pr_addr(s, v);
		break;
	case K_SADDRI: pr_sockaddr(s, SONDE_PL_ENTRY, v, (uint32_t)st_arg(s, a->aux)); break;
	case K_CLOCK: pr_clockid(s, v); break;
	case K_OPENF: pr_open_flags(s, v); break;
	default: pr_hex(s, v); break;
	}
}

/* strace's texts for the kernel's internal restart codes. */
static const char *restart_text(int err)
{
	switch (err) {
	case 512: return "To be restarted if SA_RESTART is set";
	case 513: return "To be restarted";
	case 514: return "To be restarted if no handler";
	case 516: return "Interrupted by signal";
	}
	return NULL;
}

static void pr_errno(struct st *s)
{
	const char *name = sonde_errno_name(s->err);
	const char *rt = restart_text(s->err);

	if (!name)
		name = xlat_name(&x_errnos, (uint64_t)s->err);
	if (rt) {
		sb_printf(s->o, "? %s (%s)", name ? name : "ERESTART", rt);
		return;
	}
	if (s->err_u32)
		sb_printf(s->o, "%llu", (unsigned long long)s->ret);
	else
		sb_puts(s->o, "-1");
	/* strace 6.1 names errnos whatever -X says. */
	if (!name)
		sb_printf(s->o, " (errno %d)", s->err);
	else if (s->err >= 512)
		sb_printf(s->o, " %s", name);
	else
		sb_printf(s->o, " %s (%s)", name, strerror(s->err));
}

static void pr_ret(struct st *s)
{
	if (s->noret) {
		sb_putc(s->o, '?');
		return;
	}
	if (s->err) {
		pr_errno(s);
		return;
	}
	switch (s->rkind) {
	case R_HEX:
		sb_printf(s->o, "%#llx", (unsigned long long)s->ret);
		break;
	case R_FD:
		pr_fd(s, (int)s->ret);
		break;
	case R_OCT:
		sb_printf(s->o, "%#03llo", (unsigned long long)s->ret);
		break;
	case R_UDEC:
		sb_printf(s->o, "%llu", (unsigned long long)s->ret);
		break;
	case R_PID:
		pr_pid(s, (uint64_t)s->ret);
		break;
	case R_CHILD:
		pr_pid_child(s, (uint64_t)s->ret);
		break;
	case R_PGID:
		pr_pgid(s, (uint64_t)s->ret);
		break;
	default:
		sb_printf(s->o, "%lld", (long long)s->ret);
		break;
	}
	if (s->rv_aux.s)
		sb_puts(s->o, s->rv_aux.s);
}

int st_ret_errno(const struct sonde_ev_syscall *sc, const struct sonde_strace_opts *opt,
		 int *as_u32)
{
	uint64_t r = (uint64_t)sc->ret;

	*as_u32 = 0;
	if (sc->hdr.flags & SONDE_SC_NO_RESULT)
		return 0;
	if (sc->ret < 0 && sc->ret >= -4095)
		return (int)-sc->ret;
	/* x86-64's modify_ldt returns an int zero-extended (its ABI says
	 * int); strace's decoder (not -e raw=) takes 0xfffff000 and up for
	 * an error, and still prints the number. */
	if (sc->nr == __NR_modify_ldt && r >= 0xfffff000u && r <= 0xffffffffu &&
	    !sonde_sc_set_has_call(&opt->raw, sc)) {
		*as_u32 = 1;
		return (int)-(int32_t)(uint32_t)r;
	}
	return 0;
}

/* Errors are returned as -1..-4095; anything else is a value. */
static void st_init(struct st *s, struct strbuf *o,
		    const struct sonde_strace_opts *opt,
		    const struct sonde_call *c, struct fdtab *fds)
{
	memset(s, 0, sizeof(*s));
	s->o = o;
	s->opt = opt;
	s->c = c;
	s->sc = c->sc;
	s->fds = fds;
	s->ret = c->sc->ret;
	s->noret = !!(c->sc->hdr.flags & SONDE_SC_NO_RESULT);
	s->err = st_ret_errno(c->sc, opt, &s->err_u32);
}

/*
 * The text of the call up to and including ") ", then the padding to
 * the -a column is the caller's business, then "= ret": split in two so
 * the renderer can pad. Returns the syscall's nargs-driven text in o.
 */
/* Argument kinds strace prints when the call returns. */
static int kind_at_exit(uint8_t kind)
{
	return kind == K_BUFO || kind == K_OUT || kind == K_IOVO || kind == K_SSETO;
}

/*
 * A call decoded under another number (st_decoded_nr: getuid32 as getuid)
 * is a copy under that number, so that the decoders' tests of the number
 * hold. Others are returned as they are.
 */
static const struct sonde_call *st_as_twin(const struct sonde_call *c, struct sonde_call *tc,
					   struct sonde_ev_syscall *tsc)
{
	uint32_t nr = st_decoded_nr(c->sc->nr);

	if (nr == c->sc->nr)
		return c;
	*tsc = *c->sc;
	tsc->nr = nr;
	*tc = *c;
	tc->sc = tsc;
	return tc;
}

void st_format_split(struct strbuf *o, const struct sonde_strace_opts *opt,
		     const struct sonde_call *c, struct fdtab *fds,
		     struct strbuf *ret, void (*mid)(void *arg), void *arg,
		     struct sonde_line *fdmap, size_t *split)
{
	const uint32_t nr = c->sc->nr; /* named, and -e raw= tested, as recorded */
	const int i386 = !!(c->sc->hdr.flags & SONDE_SC_COMPAT);
	const char *name = sonde_syscall_name(nr);
	struct sonde_ev_syscall tsc;
	const struct sonde_ev_syscall *sc;
	struct sonde_strace_opts vo;
	const struct st_sig *sig;
	struct sonde_call tc;
	struct st s;

	c = st_as_twin(c, &tc, &tsc);
	sc = c->sc;
	sig = st_sig_of(sc->nr);
	if (opt->abbrev_on) {
		/* -e abbrev=SET: -v for the calls outside SET */
		vo = *opt;
		vo.verbose = !sonde_sc_set_has(&opt->abbrev, nr, i386);
		opt = &vo;
	}
	st_init(&s, o, opt, c, fds);
	s.fdmap = fdmap;
	s.addr_only = opt->deref_on && !sonde_sc_set_has(&opt->deref, nr, i386);
	if (name)
		sb_printf(o, "%s(", name);
	else
		sb_printf(o, "syscall_%#llx(", (unsigned long long)sonde_syscall_nr_wide(nr));
	if (sig && sig->known && !sonde_sc_set_has(&opt->raw, nr, i386)) {
		s.rkind = sig->rkind;
		if (sig->fn)
			sig->fn(&s);
		for (int i = 0; !sig->fn && i < sig->nargs; i++) {
			if (sig->a[i].kind == K_SKIP)
				continue;
			if (i)
				st_sep_at(&s, i);
			if (kind_at_exit(sig->a[i].kind))
				st_entry_end(&s);
			st_print_arg(&s, &sig->a[i], i);
		}
	} else {
		/* Undecoded or -e raw=: the raw arguments in hex, as many as
		 * it takes; all six registers for an unknown number. strace
		 * prints a raw call's result in hex too, an undecoded one's
		 * in decimal. */
		const struct sonde_syscall_info *si = sonde_syscall_info(nr);
		unsigned int n = sonde_syscall_nargs(nr);

		if (sonde_sc_set_has(&opt->raw, nr, i386) ||
		    (si && (si->flags & SONDE_SCF_RET_ADDR)))
			s.rkind = R_HEX;

		for (unsigned int i = 0; i < n && i < 6; i++)
			sb_printf(o, "%s%#llx", i ? ", " : "",
				  (unsigned long long)sc->args[i]);
	}
	st_entry_end(&s);
	if (split)
		*split = s.split;
	sb_putc(o, ')');
	if (mid)
		mid(arg);
	s.o = ret;
	pr_ret(&s);
	sb_free(&s.rv_aux);
}

void st_format_args(struct strbuf *o, const struct sonde_strace_opts *opt,
		    const struct sonde_call *c, struct fdtab *fds,
		    struct strbuf *ret, void (*mid)(void *arg), void *arg,
		    struct sonde_line *fdmap)
{
	st_format_split(o, opt, c, fds, ret, mid, arg, fdmap, NULL);
}

int st_format_json(struct sonde_line *args, struct sonde_line *res,
		   const struct sonde_strace_opts *opt,
		   const struct sonde_call *c)
{
	const struct sonde_ev_syscall *sc;
	const struct st_sig *sig;
	struct sonde_ev_syscall tsc;
	struct sonde_call tc;
	struct strbuf scratch;
	unsigned int n;
	struct st s;

	c = st_as_twin(c, &tc, &tsc);
	sc = c->sc;
	sig = st_sig_of(sc->nr);
	if (!sig || !sig->known)
		return -1;
	sb_init(&scratch);
	st_init(&s, &scratch, opt, c, NULL);
	s.j = args;
	s.jres = res;
	s.argnames = sc->nr < SONDE_NR_SYSCALLS ? st_argnames[sc->nr] : NULL;
	s.rkind = sig->rkind;
	sonde_line_putc(args, '{');
	if (sig->fn)
		sig->fn(&s);
	for (int i = 0; !sig->fn && i < sig->nargs; i++) {
		if (sig->a[i].kind == K_SKIP)
			continue;
		st_sep_at(&s, i);
		st_print_arg(&s, &sig->a[i], i);
	}
	/* Arguments the decoder leaves out, as strace does (open's mode
	 * without O_CREAT, fcntl's unused third), keep their raw value:
	 * nothing is dropped. */
	s.depth = 0;
	n = sonde_syscall_nargs(sc->nr);
	for (unsigned int i = 0; i < n && i < 6; i++) {
		if (s.argdone & (1u << i))
			continue;
		s.argi = (uint8_t)i;
		s.jkey = NULL;
		st_juint(&s, sc->args[i]);
	}
	sonde_line_putc(args, '}');
	sb_free(&s.rv_aux);
	sb_free(&scratch);
	return 0;
}
