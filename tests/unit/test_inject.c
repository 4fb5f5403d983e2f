// SPDX-License-Identifier: GPL-2.0
/*
 * src/inject/: strace's -e inject= and -e fault= specs (keys, ranges,
 * refusals), when= invocation sets, which rule a call gets, -e trace=
 * narrowing them, and the seccomp filter, run by a small interpreter of
 * the classic BPF it uses.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include <sonde/inject.h>

#include "check.h"

static struct sonde_inject inj;
static char err[256];

static int parse(const char *spec, bool fault)
{
	return sonde_inject_parse(&inj, spec, fault, err, sizeof(err));
}

static const struct sonde_inject_rule *last(void)
{
	return &inj.rules[inj.n - 1];
}

TEST(keys)
{
	CHECK_EQ_INT(parse("chdir:error=ENOENT", false), 0);
	CHECK_EQ_INT(last()->error, ENOENT);
	CHECK(sonde_sc_set_has(&last()->set, SYS_chdir, 0) &&
	      !sonde_sc_set_has(&last()->set, SYS_read, 0));
	CHECK_EQ_INT(parse("read,write:error=5", false), 0);
	CHECK_EQ_INT(last()->error, 5);
	CHECK_EQ_INT(parse("getpid:retval=0x2a:signal=USR1", false), 0);
	CHECK(last()->has_retval && last()->retval == 42);
	CHECK_EQ_INT(last()->signal, 10);
	CHECK_EQ_INT(parse("getpid:signal=SIGRTMIN", false), 0);
	CHECK_EQ_INT(last()->signal, 32);
	CHECK_EQ_INT(parse("getpid:signal=usr2:retval=-1", false), 0);
	CHECK(last()->signal == 12 && last()->retval == UINT64_MAX);
	CHECK_EQ_INT(parse("getpid:delay_enter=20ms:delay_exit=7", false), 0);
	CHECK(last()->delay_enter_ns == 20000000 && last()->delay_exit_ns == 7000);
	CHECK_EQ_INT(parse("chdir:poke_enter=@arg1=2f746d70,@arg2=00", false), 0);
	CHECK_EQ_INT(last()->npokes, 2);
	CHECK(last()->pokes[0].arg == 0 && last()->pokes[0].len == 4 &&
	      !memcmp(last()->pokes[0].data, "/tmp", 4) && last()->pokes[1].arg == 1);
	CHECK_EQ_INT(parse("chdir:error=EPERM:poke_exit=@arg1=41", false), 0);
	CHECK_EQ_INT(parse("chdir:syscall=getpid:error=EPERM", false), 0);
	CHECK_EQ_INT(parse("chdir", true), 0); /* fault: ENOSYS */
	CHECK_EQ_INT(last()->error, ENOSYS);
	CHECK_EQ_INT(parse("chdir:error=EIO:when=2", true), 0);
	CHECK_EQ_INT(last()->error, EIO);
	sonde_inject_free(&inj);
	CHECK_EQ_INT(inj.n, 0);
}

TEST(refusals)
{
	static const char *const bad[] = {
		"chdir",		      /* nothing to do */
		"chdir:error=EPERM:retval=1", /* both */
		"chdir:retval=1:error=EPERM",
		"chdir:error=ENOPE", /* no such name */
		"chdir:error=4096",  /* out of range */
		"chdir:signal=65",
		"chdir:signal=USR1:signal=USR2", /* twice */
		"chdir:delay_enter=5parsecs",
		"chdir:poke_enter=@arg7=41", /* args 1..6 */
		"chdir:poke_enter=@arg1=4",  /* odd digit count */
		"chdir:poke_enter=@arg1=zz",
		"chdir:poke_exit=@arg1=41",	   /* no answer of sonde's own */
		"chdir:syscall=chdir:error=EPERM", /* not a pure call */
		"chdir:when=0:error=EPERM",
		"chdir:error=EPERM:bogus=1",
		"nosuchcall:error=EPERM",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		CHECK(parse(bad[i], false) == -EINVAL);
		CHECK(err[0]);
	}
	CHECK(parse("chdir:retval=1", true) == -EINVAL); /* fault: error and when only */
	CHECK(parse("chdir:signal=USR1", true) == -EINVAL);
	CHECK_EQ_INT(inj.n, 0);
}

/* Which of invocations 1..20 when= picks, as a bit set (bit n-1). */
static long long hits(const char *when)
{
	char spec[64];
	long long bits = 0;

	snprintf(spec, sizeof(spec), "chdir:error=EPERM:when=%s", when);
	if (parse(spec, false))
		return -1;
	for (int n = 1; n <= 20; n++)
		if (sonde_inject_when_hits(&last()->when, (uint64_t)n))
			bits |= 1LL << (n - 1);
	return bits;
}

TEST(when)
{
	CHECK_EQ_INT(hits("3"), 0x4);
	CHECK_EQ_INT(hits("2..3"), 0x6);
	CHECK_EQ_INT(hits("18+"), 0x7 << 17);
	CHECK_EQ_INT(hits("1+2"), 0x55555);
	CHECK_EQ_INT(hits("2..8+3"), (1 << 1) | (1 << 4) | (1 << 7));
	CHECK_EQ_INT(hits("65535"), 0);
	CHECK(!sonde_inject_when_hits(&last()->when, 65534) &&
	      sonde_inject_when_hits(&last()->when, 65535));
	for (const char *const *b =
		     (const char *const[]){ "0", "3..2", "1+0", "1+65535", "65536", "1..", "..2",
					    "a", "1+2..3", "2..3+", "", NULL };
	     *b; b++)
		CHECK_EQ_INT(hits(*b), -1);
	sonde_inject_free(&inj);
}

TEST(rules_and_trace)
{
	struct sonde_sc_set traced;

	CHECK_EQ_INT(parse("chdir,getpid:error=EACCES", false), 0);
	CHECK_EQ_INT(parse("chdir:retval=3", false), 0);
	CHECK(sonde_inject_rule_for(&inj, SYS_chdir) == &inj.rules[1]); /* the later one */
	CHECK(sonde_inject_rule_for(&inj, SYS_getpid) == &inj.rules[0]);
	CHECK(!sonde_inject_rule_for(&inj, SYS_read));
	memset(&traced, 0, sizeof(traced));
	sonde_sc_set_add(&traced, SYS_getpid, 0);
	sonde_inject_restrict(&inj, &traced);
	CHECK(!sonde_inject_rule_for(&inj, SYS_chdir));
	CHECK(sonde_inject_rule_for(&inj, SYS_getpid) == &inj.rules[0]);
	sonde_inject_free(&inj);
}

/* The classic BPF the filter uses: loads of seccomp_data words, JEQ, RET. */
static uint32_t filter_run(const struct sock_filter *f, unsigned short len,
			   const struct seccomp_data *d)
{
	uint32_t a = 0;

	for (unsigned short pc = 0; pc < len; pc++) {
		const struct sock_filter *i = &f[pc];

		switch (i->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			memcpy(&a, (const char *)d + i->k, 4);
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
			pc += a == i->k ? i->jt : i->jf;
			break;
		case BPF_RET | BPF_K:
			return i->k;
		default:
			return 0xdead;
		}
	}
	return 0xdead; /* fell off the end */
}

TEST(filter)
{
	struct seccomp_data d = { .arch = AUDIT_ARCH_X86_64 };
	struct sock_filter *f;
	unsigned short len;

	CHECK_EQ_INT(parse("chdir,%process:error=EPERM", false), 0);
	CHECK_EQ_INT(sonde_inject_filter(&inj, &f, &len), 0);
	for (int nr = 0; nr < 600; nr++) {
		d.nr = nr;
		CHECK_EQ_INT(filter_run(f, len, &d), sonde_inject_rule_for(&inj, (unsigned int)nr)
							     ? SECCOMP_RET_USER_NOTIF
							     : SECCOMP_RET_ALLOW);
	}
	d.nr = SYS_chdir | 0x40000000; /* x32 */
	CHECK_EQ_INT(filter_run(f, len, &d), SECCOMP_RET_ALLOW);
	d.nr = SYS_chdir;
	d.arch = AUDIT_ARCH_I386;
	CHECK_EQ_INT(filter_run(f, len, &d), SECCOMP_RET_ALLOW);
	free(f);
	sonde_inject_free(&inj);
	/* Every call: still within the kernel's 4096 instructions. */
	CHECK_EQ_INT(parse("all:error=EPERM", false), 0);
	CHECK_EQ_INT(sonde_inject_filter(&inj, &f, &len), 0);
	CHECK(len <= 4096);
	d.arch = AUDIT_ARCH_X86_64;
	d.nr = SYS_execve;
	CHECK_EQ_INT(filter_run(f, len, &d), SECCOMP_RET_USER_NOTIF);
	free(f);
	sonde_inject_free(&inj);
}

TEST(times)
{
	uint64_t ns;

	CHECK(!sonde_time_parse("1.5s", &ns) && ns == 1500000000);
	CHECK(!sonde_time_parse("250", &ns) && ns == 250000);
	CHECK(!sonde_time_parse("3ns", &ns) && ns == 3);
	CHECK(sonde_time_parse("-1", &ns) == -EINVAL);
	CHECK(sonde_time_parse("1h", &ns) == -EINVAL);
	CHECK(sonde_time_parse("", &ns) == -EINVAL);
}

int main(void)
{
	RUN(keys);
	RUN(refusals);
	RUN(when);
	RUN(rules_and_trace);
	RUN(filter);
	RUN(times);
	CHECK_EXIT();
}
