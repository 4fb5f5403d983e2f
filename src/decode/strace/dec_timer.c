// SPDX-License-Identifier: GPL-2.0
/*
 * struct sigevent, as strace 6.1 prints it: timer_create's (timeout's
 * timer). The POSIX timer calls themselves are signatures in table.c.
 */
#include <signal.h>
#include <stdint.h>

#include "decode/strace/strace_int.h"

#define X_OF(e) { e, sizeof(e) / sizeof(e[0]), 0 }

static const struct xlat_ent sigev_e[] = {
	XE(SIGEV_SIGNAL), XE(SIGEV_NONE), XE(SIGEV_THREAD), XE(SIGEV_THREAD_ID),
};
static const struct xlat x_sigev = X_OF(sigev_e);

/* The value strace shows only when its pointer member is not NULL. */
static void pr_sigev_value(struct st *s, const struct sigevent *e)
{
	if (!e->sigev_value.sival_ptr)
		return;
	st_field(s, "sigev_value");
	st_obj_begin(s);
	pr_int_field(s, "sival_int", e->sigev_value.sival_int);
	st_field(s, "sival_ptr");
	pr_addr(s, (uint64_t)(uintptr_t)e->sigev_value.sival_ptr);
	st_obj_end(s);
}

/* struct sigevent: the signal is named when one is sent, the members of
 * the thread notifications follow sigev_notify. */
void ps_sigevent(struct st *s, int phase, uint64_t addr)
{
	struct sigevent e;
	int sig;

	if (!st_fetch(s, phase, addr, &e, sizeof(e)))
		return;
	sig = e.sigev_notify == SIGEV_SIGNAL || e.sigev_notify == SIGEV_THREAD ||
	      e.sigev_notify == SIGEV_THREAD_ID;
	st_obj_begin(s);
	pr_sigev_value(s, &e);
	st_field(s, "sigev_signo");
	if (sig)
		pr_sig(s, (uint64_t)e.sigev_signo);
	else
		pr_uint(s, (uint32_t)e.sigev_signo);
	st_field(s, "sigev_notify");
	pr_xval(s, &x_sigev, (uint32_t)e.sigev_notify, "SIGEV_???");
	if (e.sigev_notify == SIGEV_THREAD_ID) {
		pr_int_field(s, "sigev_notify_thread_id", e._sigev_un._tid);
	} else if (e.sigev_notify == SIGEV_THREAD) {
		st_field(s, "sigev_notify_function");
		pr_addr(s, (uint64_t)(uintptr_t)e._sigev_un._sigev_thread._function);
		st_field(s, "sigev_notify_attributes");
		pr_addr(s, (uint64_t)(uintptr_t)e._sigev_un._sigev_thread._attribute);
	}
	st_obj_end(s);
}
