// SPDX-License-Identifier: GPL-2.0
/*
 * -k: each call's stack, unwound from what record --user-stack kept
 * (src/stack/), in strace -k's lines, after the call's line and its
 * hexdumps:
 *
 *    > /usr/lib/x86_64-linux-gnu/libc.so.6(__write+0x10) [0xf8350]
 *    > /tmp/prog(main+0x9) [0x11a4]
 *    > /tmp/prog() [0x10a1]                  no symbol covers the pc
 *    > REASON                                the walk stopped early
 *
 * exit and exit_group never return: strace unwinds them at entry and
 * prints their stack when the task is gone, after its "+++ exited" line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <libiberty/demangle.h>
#include <sys/syscall.h>

#include "decode/strace/strace_int.h"
#include "decode/strace/render_int.h"
#include <sonde/payload.h>

/*
 * C++ names demangled, as strace's stack-demangle build prints them. A
 * frame without a name prints "FILE() [OFF]", except in the stacks
 * strace keeps for later (exit and exit_group), whose format tests the
 * name against NULL only: "FILE(+0x0) [OFF]".
 */
static int pr_frame_as(struct strbuf *sb, const struct sonde_frame *f, int kept)
{
	char *dm;

	if (f->error) {
		if (f->pc)
			sb_printf(sb, " > %s [0x%llx]\n", f->error, (unsigned long long)f->pc);
		else
			sb_printf(sb, " > %s\n", f->error);
		return 0;
	}
	if (!f->symbol || !*f->symbol) {
		sb_printf(sb, kept ? " > %s(+0x0) [0x%llx]\n" : " > %s() [0x%llx]\n", f->module,
			  (unsigned long long)f->rel);
		return 0;
	}
	dm = cplus_demangle(f->symbol, DMGL_AUTO | DMGL_PARAMS);
	sb_printf(sb, " > %s(%s+0x%llx) [0x%llx]\n", f->module, dm ? dm : f->symbol,
		  (unsigned long long)f->sym_off, (unsigned long long)f->rel);
	free(dm);
	return 0;
}

static int pr_frame(void *ctx, const struct sonde_frame *f)
{
	return pr_frame_as(ctx, f, 0);
}

static int pr_frame_kept(void *ctx, const struct sonde_frame *f)
{
	return pr_frame_as(ctx, f, 1);
}

/*
 * strace 6.1 unwinds exit, exit_group, execve and execveat at entry and
 * prints them later (the kept format); but the first execve of the
 * command it starts, whose entry it does not unwind, at exit: the new
 * program's first instruction.
 */
static int stack_lines(struct sonde_strace *st, const struct sonde_call *c, struct strbuf *sb)
{
	const struct sonde_ev_syscall *sc = c->sc;
	int exec = sc->nr == __NR_execve || sc->nr == __NR_execveat;
	int kept = (sc->hdr.flags & SONDE_SC_NORETURN) || exec;
	unsigned int which = SONDE_USTACK_EXIT;
	int r;

	if (exec && st->launch_tid && st->launch_tid == sc->hdr.tid) {
		st->launch_tid = 0;
		kept = 0;
	} else if (exec) {
		which = SONDE_USTACK_ENTRY;
	}
	r = sonde_ustack_unwind(st->ustack, sc->hdr.pid, sc->hdr.tid, c->pl, c->npl, which,
				kept ? pr_frame_kept : pr_frame, sb);

	if (r < 0)
		return r;
	st->nostack += r == 1;
	return sb->oom ? -ENOMEM : 0;
}

/* tid's kept stack, or NULL. */
static struct strace_exit_stack *exit_stack_find(const struct sonde_strace *st, uint32_t tid)
{
	for (size_t i = 0; i < st->nexit_stacks; i++)
		if (st->exit_stacks[i].tid == tid)
			return &st->exit_stacks[i];
	return NULL;
}

/* A task's stack kept for its exit line. */
static int exit_stack_keep(struct sonde_strace *st, uint32_t tid, const struct sonde_call *c)
{
	struct strbuf sb = { 0 };
	struct strace_exit_stack *k;
	int r = stack_lines(st, c, &sb);

	if (r || !sb.len) {
		sb_free(&sb);
		return r;
	}
	k = exit_stack_find(st, tid);
	if (k) {
		free(k->text);
		k->text = sb.s;
		return 0;
	}
	k = realloc(st->exit_stacks, (st->nexit_stacks + 1) * sizeof(*k));
	if (!k) {
		sb_free(&sb);
		return -ENOMEM;
	}
	st->exit_stacks = k;
	k[st->nexit_stacks++] = (struct strace_exit_stack){ tid, sb.s };
	return 0;
}

int strace_pr_stack(struct sonde_strace *st, const struct sonde_call *c, struct strbuf *sb)
{
	const struct sonde_ev_syscall *sc = c->sc;

	if (!st->ustack)
		return 0;
	if (sc->hdr.flags & SONDE_SC_NORETURN)
		return exit_stack_keep(st, sc->hdr.tid, c);
	return stack_lines(st, c, sb);
}

int strace_pr_signal_stack(struct sonde_strace *st, const struct sonde_hdr *rec,
			   const struct sonde_payload *pl, unsigned int npl)
{
	int r;

	if (!st->ustack || !npl)
		return 0;
	r = sonde_ustack_unwind(st->ustack, rec->pid, rec->tid, pl, npl, SONDE_USTACK_EXIT,
				pr_frame, &st->line);
	if (r < 0 || !st->line.len)
		return r < 0 ? r : 0;
	st->line_tid = rec->tid;
	return strace_emit(st);
}

int strace_stack_kept(const struct sonde_strace *st, uint32_t tid)
{
	return exit_stack_find(st, tid) != NULL;
}

void strace_stack_exit(struct sonde_strace *st, uint32_t tid)
{
	struct strace_exit_stack *k = exit_stack_find(st, tid);

	if (!k)
		return;
	sb_puts(&st->line, k->text);
	free(k->text);
	*k = st->exit_stacks[--st->nexit_stacks];
}

void strace_stack_free(struct sonde_strace *st)
{
	for (size_t i = 0; i < st->nexit_stacks; i++)
		free(st->exit_stacks[i].text);
	free(st->exit_stacks);
	sonde_ustack_free(st->ustack);
}
