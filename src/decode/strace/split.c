// SPDX-License-Identifier: GPL-2.0
/*
 * strace's "<unfinished ...>" / "<... NAME resumed>" split, replayed from
 * one record per call (render_int.h): the open line, cut when another
 * line must be printed first, and the returning halves of cut lines,
 * printed in exit order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sonde/syscalls.h>

#include "decode/strace/render_int.h"

/* " = RET\n" with " = " at the -a column, then the hexdumps. */
static void pr_ret_tail(struct sonde_strace *st, const char *ret, const char *dump)
{
	size_t col;

	sb_putc(&st->line, ' ');
	for (col = sb_col(&st->line); col < st->o.acolumn; col++)
		sb_putc(&st->line, ' ');
	sb_puts(&st->line, "= ");
	sb_puts(&st->line, ret);
	sb_putc(&st->line, '\n');
	if (dump)
		sb_puts(&st->line, dump);
}

/* Another line is due: the open line's entering half goes out, its
 * returning half into q. */
int split_cut_open(struct sonde_strace *st)
{
	struct callq_ent e = { .end = st->open_end, .tid = st->open_rtid };
	int rc, rq;

	if (!st->open)
		return 0;
	st->open = 0;
	rc = strace_pr_lead_as(st, st->open_tid, st->open_ts, st->open_nr, st->open_ip,
			       st->open_lead);
	if (rc)
		return rc;
	sb_putn(&st->line, sb_str(&st->otext), st->open_cut);
	sb_puts(&st->line, " <unfinished ...>\n");
	rc = strace_emit(st);
	/* -b execve: strace let it go at the exec; it never resumes. */
	if (st->open_detached) {
		st->open_detached = 0;
		return rc;
	}
	e.nr = st->open_nr;
	e.ip = st->open_ip;
	e.rest = strdup(sb_str(&st->otext) + st->open_cut);
	e.ret = strdup(sb_str(&st->oret));
	e.dump = st->odump.len ? strdup(st->odump.s) : NULL;
	if (!e.rest || !e.ret || (st->odump.len && !e.dump)) {
		callq_ent_free(&e);
		return -ENOMEM;
	}
	rq = callq_push(&st->q, &e);
	return rc ? rc : rq;
}

int split_close_open(struct sonde_strace *st)
{
	/* Entered in one pid, returning in another (a non-leader's execve):
	 * strace prints two halves; the returning one is queued at its end. */
	if (st->open_tid != st->open_rtid && !st->open_detached)
		return split_cut_open(st);
	st->open = 0;
	if (strace_pr_lead_as(st, st->open_tid, st->open_ts, st->open_nr, st->open_ip,
			      st->open_lead))
		return -ENOMEM;
	if (st->open_detached) {
		/* -b execve, no other line since its entry */
		st->open_detached = 0;
		sb_putn(&st->line, sb_str(&st->otext), st->open_cut);
		sb_puts(&st->line, " <detached ...>\n");
		return strace_emit(st);
	}
	sb_puts(&st->line, sb_str(&st->otext));
	pr_ret_tail(st, sb_str(&st->oret), st->odump.len ? st->odump.s : NULL);
	attach_returned(st, st->open_rtid, st->open_nr);
	return strace_emit(st);
}

/* "<... read resumed>\"data\", 4) = 4", at the call's exit time. */
static int split_resume(struct sonde_strace *st, const struct callq_ent *e)
{
	const char *name = sonde_syscall_name(e->nr);
	int rc = split_cut_open(st), re;

	if (strace_pr_lead(st, e->tid, e->end, e->nr, e->ip))
		return -ENOMEM;
	if (name)
		sb_printf(&st->line, "<... %s resumed>", name);
	else
		sb_printf(&st->line, "<... syscall_%#llx resumed>",
			  (unsigned long long)sonde_syscall_nr_wide(e->nr));
	sb_puts(&st->line, e->rest);
	pr_ret_tail(st, e->ret, e->dump);
	attach_returned(st, e->tid, e->nr);
	re = strace_emit(st);
	return rc ? rc : re;
}

/* Prints, in exit order, the calls that returned by time t. */
int split_release(struct sonde_strace *st, uint64_t t)
{
	int rc = 0;

	for (;;) {
		const struct callq_ent *top = callq_top(&st->q);
		struct callq_ent e;
		int r;

		if (st->open && st->open_end <= t && (!top || st->open_end <= top->end)) {
			r = split_close_open(st);
		} else if (top && top->end <= t) {
			callq_pop(&st->q, &e);
			r = split_resume(st, &e);
			callq_ent_free(&e);
		} else {
			break;
		}
		if (r && !rc)
			rc = r;
	}
	return rc;
}

/*
 * A signal sent to a task in a syscall is recorded when it is sent; a
 * ptracer sees it when the task takes it, once that call has returned: the
 * call's line comes first.
 */
int split_settle_tid(struct sonde_strace *st, uint32_t tid)
{
	struct callq_ent e;
	int rc;

	if (st->open && st->open_rtid == tid) {
		rc = split_close_open(st);
		if (rc)
			return rc;
	}
	if (!callq_take_tid(&st->q, tid, &e))
		return 0;
	rc = split_resume(st, &e);
	callq_ent_free(&e);
	return rc;
}

/*
 * strace prints a call whose return it never saw (its task died on the
 * way out) as its entering half, " <unfinished ...>" if the decoder had
 * more to print at exit, then ") = ?": no result, no -T time, no
 * hexdump. Whole or split, as any line.
 */
void split_killed(struct sonde_strace *st)
{
	int more = strcmp(sb_str(&st->otext) + st->open_cut, ")") != 0;

	if (st->otext.s) {
		st->otext.len = st->open_cut;
		st->otext.s[st->open_cut] = '\0';
	}
	sb_puts(&st->otext, more ? " <unfinished ...>)" : ")");
	sb_reset(&st->oret);
	sb_putc(&st->oret, '?');
	sb_reset(&st->odump);
}

/* A call still blocked when recording stopped: its entering half only,
 * ended as strace ends the call of a task it detaches from. */
int split_unfinished(struct sonde_strace *st, const struct sonde_ev_syscall *sc, uint64_t ip)
{
	if (strace_pr_lead(st, sc->hdr.tid, sc->hdr.ts, sc->nr, ip))
		return -ENOMEM;
	sb_putn(&st->line, sb_str(&st->otext), st->open_cut);
	sb_puts(&st->line, " <detached ...>\n");
	return strace_emit(st);
}
