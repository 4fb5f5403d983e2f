// SPDX-License-Identifier: GPL-2.0
/*
 * Decoders of a task's execution settings whose result strace names:
 * personality (the persona before the call) and sched_getscheduler (the
 * policy).
 */
#include <sys/personality.h>
#include <sys/resource.h>

#include "decode/strace/strace_int.h"

/* Text: PER_LINUX32|ADDR_NO_RANDOMIZE, the type (low byte) then flags. */
static void pr_persona(struct st *s, uint32_t v)
{
	pr_xval(s, &x_personality, v & PER_MASK, "PER_???");
	if (v & ~PER_MASK) {
		sb_putc(s->o, '|');
		pr_flags_in(s, &x_persona_flags, v & ~PER_MASK);
	}
}

/* A persona in both sinks (JSON an array of the names). */
static void pr_persona_any(struct st *s, uint32_t v)
{
	struct st_cap c;

	pr_persona(st_cap_begin(s, &c), v);
	st_cap_flags(s, &c);
}

/* personality(0xffffffff) only queries; = 0x40000 (PER_LINUX|...) */
void dec_personality(struct st *s)
{
	uint32_t v = (uint32_t)st_arg(s, 0);
	struct strbuf b;
	struct st t;

	if (v == 0xffffffff)
		pr_hex(s, v);
	else
		pr_persona_any(s, v);
	if (!st_ok(s))
		return;
	st_res_begin(s, &t, &b, "persona");
	sb_puts(&b, " (");
	pr_persona_any(&t, (uint32_t)s->ret);
	sb_putc(&b, ')');
	st_res_end(s, &t, &b);
}

/* = 0 (SCHED_OTHER), whatever -X says; a policy with flags stays a number */
void dec_sched_getscheduler(struct st *s)
{
	const char *n = xlat_name(&x_sched_policy, (uint64_t)s->ret);
	struct strbuf b;
	struct st t;

	pr_pid(s, st_arg(s, 0));
	if (!st_ok(s) || !n)
		return;
	st_res_begin(s, &t, &b, "policy");
	sb_puts(&b, " (");
	pr_sym(&t, n);
	sb_putc(&b, ')');
	st_res_end(s, &t, &b);
}

/* which, who: a process (-Y names it), a process group or a user. */
static void pr_prio_who(struct st *s)
{
	pr_xval(s, &x_prio_which, (uint32_t)st_arg(s, 0), NULL);
	st_sep(s);
	if ((uint32_t)st_arg(s, 0) == PRIO_PROCESS)
		pr_pid(s, st_arg(s, 1));
	else
		pr_int(s, st_arg(s, 1));
}

void dec_getpriority(struct st *s)
{
	pr_prio_who(s);
}

void dec_setpriority(struct st *s)
{
	pr_prio_who(s);
	st_sep(s);
	pr_int(s, st_arg(s, 2));
}
