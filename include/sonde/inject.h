/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tampering with the calls of a command sonde starts: strace's
 * -e inject= and -e fault=. Without kprobes (bpf_override_return) a BPF
 * program cannot change a call's result; a seccomp filter can. The
 * command is started under a filter that answers SECCOMP_RET_USER_NOTIF
 * for the x86-64 calls of the rules, and a supervisor thread in the
 * recorder answers each notification: an error or a value in place of
 * the call (the kernel never runs it), or "continue" after a delay, a
 * signal or writing the call's memory. The recorder marks the call's
 * record (events.h: SONDE_SC_INJECTED, _POKED, _DELAYED).
 *
 *   command (under the filter)        recorder
 *   chdir("/") ── seccomp ──────────> supervisor: nth chdir of this
 *      waits                          thread; inject? mark it, answer
 *   <─────────── error / continue ───
 *   sys_exit: record + marks
 */
#ifndef SONDE_INJECT_H
#define SONDE_INJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <sonde/syscalls.h>

/* Which invocations, per thread and per call (strace's when=first..last+step). */
struct sonde_inject_when {
	uint32_t first, last, step; /* last UINT32_MAX: no end */
};

/* poke_enter=/poke_exit=: bytes written at the address in an argument. */
struct sonde_inject_poke {
	uint8_t arg;  /* 0..5 */
	uint8_t exit; /* poke_exit */
	uint16_t len;
	uint8_t *data;
};

struct sonde_inject_rule {
	struct sonde_sc_set set;
	int error;	 /* error=: 1..4095, else 0 */
	bool has_retval; /* retval= */
	uint64_t retval;
	int signal; /* signal=: 1..64, else 0 */
	uint64_t delay_enter_ns, delay_exit_ns;
	struct sonde_inject_poke *pokes;
	size_t npokes;
	struct sonde_inject_when when;
};

struct sonde_inject {
	struct sonde_inject_rule *rules;
	size_t n;
};

/*
 * Adds the rule of one -e inject=SPEC (fault: -e fault=SPEC, whose only
 * keys are error, ENOSYS by default, and when). 0, or -EINVAL/-ENOMEM
 * with err naming the problem.
 */
int sonde_inject_parse(struct sonde_inject *inj, const char *spec, bool fault, char *err,
		       size_t errlen);
void sonde_inject_free(struct sonde_inject *inj);
/* The rule for the x86-64 call nr (the last one given that names it), or
 * NULL: i386 calls are never tampered with. */
const struct sonde_inject_rule *sonde_inject_rule_for(const struct sonde_inject *inj,
						      unsigned int nr);
/* Is invocation n (from 1) of a call one its rule tampers with? */
bool sonde_inject_when_hits(const struct sonde_inject_when *w, uint64_t n);
/* Parses a time: a number and s, ms, us (the default) or ns. */
int sonde_time_parse(const char *s, uint64_t *ns);

/* Keeps only the calls of traced in the rules: strace tampers only with
 * the calls it traces (-e trace=). */
void sonde_inject_restrict(struct sonde_inject *inj, const struct sonde_sc_set *traced);

/*
 * The command's seccomp filter (classic BPF): SECCOMP_RET_USER_NOTIF for
 * the x86-64 calls some rule names, SECCOMP_RET_ALLOW for the rest and
 * for other ABIs. *prog is malloc'ed; 0 or -ENOMEM.
 */
struct sock_filter;
int sonde_inject_filter(const struct sonde_inject *inj, struct sock_filter **prog,
			unsigned short *len);

/*
 * The supervisor (src/inject/supervise.c): a thread answering the
 * notifications of listener (the filter's fd, which it owns from then on)
 * and marking tampered calls in a BPF map. Calls of launch_pid are let
 * through uncounted until sonde_inject_released.
 */
/* The listener of the filter process pid installed (its fd in that
 * process, copied with pidfd_getfd): an fd, or -errno after 2 s. */
int sonde_inject_take_listener(pid_t pid);
struct sonde_inject_sup;
int sonde_inject_start(struct sonde_inject_sup **out, const struct sonde_inject *inj, int listener,
		       pid_t launch_pid);
/* From now on calls are counted and tampered with, marked in marks_fd. */
void sonde_inject_released(struct sonde_inject_sup *s, int marks_fd);
/* Stops the thread and closes the listener: from then on the calls the
 * filter names fail with ENOSYS in the tasks still under it. */
void sonde_inject_stop(struct sonde_inject_sup *s);

#endif /* SONDE_INJECT_H */
