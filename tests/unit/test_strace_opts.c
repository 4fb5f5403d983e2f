// SPDX-License-Identifier: GPL-2.0
/*
 * strace's -P (by path argument, by descriptor through -y's tables, the
 * realpath of a symbolic link), -q levels and -e quiet=, -e signal=
 * aliases and the killed/exited lines they govern, -c's on_call, and
 * -e verbose='s sets.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sonde/render.h>

#include "check.h"
#include "test_strace_util.h"

static struct tcall T;
static char out[65536];
static uint64_t clock_ns;

struct rr {
	FILE *f;
	struct sonde_strace *st;
};

static void rr_open(struct rr *r, struct sonde_strace_opts *o)
{
	memset(out, 0, sizeof(out));
	clock_ns = 1000;
	r->f = fmemopen(out, sizeof(out) - 1, "w");
	r->st = sonde_strace_new(o, r->f);
	sonde_strace_set_fd(r->st, 0, -100, "/w");
}

static const char *rr_close(struct rr *r)
{
	sonde_strace_flush(r->st);
	sonde_strace_free(r->st);
	fclose(r->f);
	return out;
}

/* The call in T, one after the other in time. */
static void rr_call(struct rr *r)
{
	T.sc.hdr.ts = clock_ns;
	T.sc.dur = 10;
	clock_ns += 100;
	T.call.sc = &T.sc;
	T.call.pl = T.pl;
	T.call.npl = T.npl;
	CHECK_EQ_INT(sonde_strace_call(r->st, &T.call), 0);
}

static void open_at(struct rr *r, const char *path, int fd)
{
	tc_new(&T, SYS_openat, fd, (uint64_t)AT_FDCWD, 0x1000, O_RDONLY, 0, 0, 0);
	tc_str(&T, 1, 0x1000, path);
	rr_call(r);
}

static void fd_call(struct rr *r, unsigned int nr, int64_t ret, uint64_t a0)
{
	tc_new(&T, nr, ret, a0, 0, 0, 0, 0, 0);
	rr_call(r);
}

static unsigned int counted;

static void count_one(void *ctx, const struct sonde_ev_syscall *sc)
{
	(void)ctx;
	(void)sc;
	counted++;
}

TEST(path_by_argument_and_descriptor)
{
	struct sonde_strace_opts o;
	struct rr r;
	char err[128];

	sonde_strace_opts_init(&o);
	CHECK_EQ_INT(sonde_strace_opt(&o, 'P', "/w/x", err, sizeof(err)), 0);
	CHECK_EQ_INT(sonde_strace_opt(&o, 'P', "/w/x", err, sizeof(err)), 0);
	CHECK_EQ_INT(o.paths->n, 1); /* stored once */
	o.on_call = count_one;
	counted = 0;
	rr_open(&r, &o);
	open_at(&r, "x", 3);	      /* "x" is not "/w/x": hidden, 3 named */
	fd_call(&r, SYS_fsync, 0, 3); /* by descriptor */
	fd_call(&r, SYS_getpid, 7, 0); /* no path, no descriptor */
	tc_new(&T, SYS_mmap, 0x7f0000000000, 0, 4096, PROT_READ, MAP_PRIVATE, 3, 0);
	rr_call(&r);		      /* the descriptor is argument 4 */
	tc_new(&T, SYS_dup2, 5, 3, 5, 0, 0, 0, 0);
	rr_call(&r);		      /* 5 is /w/x from now on */
	fd_call(&r, SYS_close, 0, 3); /* before its effect: still /w/x */
	fd_call(&r, SYS_fstat, -EBADF, 3);
	fd_call(&r, SYS_fsync, 0, 5);
	open_at(&r, "/w/x", 3);	      /* by path */
	tc_new(&T, SYS_pipe2, 0, 0x2000, 0, 0, 0, 0, 0);
	rr_call(&r);		      /* creates descriptors only */
	CHECK_EQ_STR(rr_close(&r),
		     "fsync(3)                                = 0\n"
		     "mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, 3, 0) = 0x7f0000000000\n"
		     "dup2(3, 5)                              = 5\n"
		     "close(3)                                = 0\n"
		     "fsync(5)                                = 0\n"
		     "openat(AT_FDCWD, \"/w/x\", O_RDONLY)      = 3\n");
	CHECK_EQ_INT(counted, 6);
	sonde_strace_opts_release(&o);
	CHECK(o.paths == NULL);
}

/* A symbolic link given to -P: the link as given, and its target. */
TEST(path_realpath)
{
	struct sonde_strace_opts o;
	char dir[] = "/tmp/sonde-pt.XXXXXX", link[64], file[64], err[128];

	CHECK(mkdtemp(dir) != NULL);
	snprintf(file, sizeof(file), "%s/f", dir);
	snprintf(link, sizeof(link), "%s/l", dir);
	fclose(fopen(file, "w"));
	CHECK_EQ_INT(symlink("f", link), 0);
	sonde_strace_opts_init(&o);
	CHECK_EQ_INT(sonde_strace_opt(&o, 'P', link, err, sizeof(err)), 0);
	CHECK_EQ_INT(o.paths->n, 2);
	CHECK_EQ_STR(o.paths->p[0].path, link);
	CHECK_EQ_INT(o.paths->p[0].from, -1);
	CHECK_EQ_STR(o.paths->p[1].path, file);
	CHECK_EQ_INT(o.paths->p[1].from, 0);
	CHECK_EQ_INT(sonde_strace_opt(&o, 'P', "", err, sizeof(err)), -EINVAL);
	sonde_strace_opts_release(&o);
	unlink(link);
	unlink(file);
	rmdir(dir);
}

TEST(quiet_levels)
{
	struct sonde_strace_opts o;
	char err[160];

	sonde_strace_opts_init(&o);
	CHECK_EQ_INT(sonde_strace_opt(&o, 'q', NULL, err, sizeof(err)), 0);
	CHECK_EQ_INT(o.quiet, SONDE_QUIET_ATTACH | SONDE_QUIET_PERSONALITY);
	sonde_strace_opt(&o, 'q', NULL, err, sizeof(err));
	CHECK_EQ_INT(o.quiet, SONDE_QUIET_ATTACH | SONDE_QUIET_PERSONALITY | SONDE_QUIET_EXIT);
	sonde_strace_opt(&o, 'q', NULL, err, sizeof(err));
	CHECK_EQ_INT(o.quiet, SONDE_QUIET_ALL);
	sonde_strace_opts_init(&o);
	CHECK_EQ_INT(sonde_strace_opt(&o, 'e', "quiet=exit,path-resolution", err, sizeof(err)), 0);
	CHECK_EQ_INT(o.quiet, SONDE_QUIET_EXIT | SONDE_QUIET_PATH_RESOLVE);
	sonde_strace_opt(&o, 'q', NULL, err, sizeof(err));
	CHECK_EQ_INT(o.quiet, SONDE_QUIET_EXIT | SONDE_QUIET_PATH_RESOLVE | SONDE_QUIET_ATTACH |
				      SONDE_QUIET_PERSONALITY);
	CHECK_EQ_INT(sonde_strace_opt(&o, 'e', "silence=!attach", err, sizeof(err)), 0);
	CHECK_EQ_INT(o.quiet_set, SONDE_QUIET_ALL & ~SONDE_QUIET_ATTACH);
	CHECK_EQ_INT(sonde_strace_opt(&o, 'e', "q=nope", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "nope") != NULL);
}

/* -qq hides exits, not deaths; -e signal= hides deaths, and a stop
 * signal's "stopped by" line with its own. */
TEST(exit_and_stop_lines)
{
	struct sonde_ev_exit ex = { .hdr = { .tid = 7, .pid = 7, .type = SONDE_REC_EXIT,
					     .size = sizeof(ex), .ts = 5000 } };
	struct sonde_ev_signal stop = { .hdr = { .tid = 7, .pid = 7, .type = SONDE_REC_SIGNAL,
						 .size = sizeof(stop), .ts = 4000 } };
	struct sonde_strace_opts o;
	struct rr r;
	char err[128];

	stop.si.signo = SIGSTOP;
	stop.si.code = -6; /* SI_TKILL */
	sonde_strace_opts_init(&o);
	sonde_strace_opt(&o, 'q', NULL, err, sizeof(err));
	sonde_strace_opt(&o, 'q', NULL, err, sizeof(err));
	rr_open(&r, &o);
	sonde_strace_record(r.st, &stop.hdr);
	ex.code = 0;
	sonde_strace_record(r.st, &ex.hdr);
	ex.code = SIGTERM;
	sonde_strace_record(r.st, &ex.hdr);
	CHECK_EQ_STR(rr_close(&r),
		     "--- SIGSTOP {si_signo=SIGSTOP, si_code=SI_TKILL, si_pid=0, si_uid=0} ---\n"
		     "--- stopped by SIGSTOP ---\n"
		     "+++ killed by SIGTERM +++\n");
	CHECK_EQ_INT(sonde_strace_opt(&o, 'e', "s=!stop,term", err, sizeof(err)), 0);
	rr_open(&r, &o);
	sonde_strace_record(r.st, &stop.hdr);
	sonde_strace_record(r.st, &ex.hdr);
	CHECK_EQ_STR(rr_close(&r), "");
	stop.handler = 0x401000; /* caught: no group stop */
	CHECK_EQ_INT(sonde_strace_opt(&o, 'e', "signals=all", err, sizeof(err)), 0);
	rr_open(&r, &o);
	sonde_strace_record(r.st, &stop.hdr);
	CHECK_EQ_STR(rr_close(&r),
		     "--- SIGSTOP {si_signo=SIGSTOP, si_code=SI_TKILL, si_pid=0, si_uid=0} ---\n");
}

/* -n numbers call lines with their call and other lines with the task's
 * last call, hidden by -e trace= or not, and counts in the -a column (as
 * strace 6.1 does); -e raw= prints a call's arguments and result in hex,
 * an error as usual. */
TEST(syscall_numbers_and_raw)
{
	struct sonde_ev_exit ex = { .hdr = { .tid = 1000, .pid = 1000, .type = SONDE_REC_EXIT,
					     .size = sizeof(ex), .ts = 5000 } };
	struct sonde_strace_opts o;
	struct rr r;
	char err[128];

	sonde_strace_opts_init(&o);
	CHECK_EQ_INT(sonde_strace_opt(&o, 'n', NULL, err, sizeof(err)), 0);
	CHECK_EQ_INT(sonde_strace_opt(&o, 'e', "trace=close", err, sizeof(err)), 0);
	CHECK_EQ_INT(sonde_strace_opt(&o, 'e', "raw=close", err, sizeof(err)), 0);
	rr_open(&r, &o);
	fd_call(&r, SYS_close, 0, 3);
	fd_call(&r, SYS_close, -EBADF, 99);
	fd_call(&r, SYS_dup, 4, 3); /* hidden, yet the task's last call */
	ex.code = 0;
	sonde_strace_record(r.st, &ex.hdr);
	CHECK_EQ_STR(rr_close(&r),
		     "[   3] close(0x3)                       = 0\n"
		     "[   3] close(0x63)                      = -1 EBADF (Bad file descriptor)\n"
		     "[  32] +++ exited with 0 +++\n");
	CHECK_EQ_INT(sonde_strace_opt(&o, 'e', "raw=nosuch", err, sizeof(err)), -EINVAL);
	/* -e inject=, -e fault=: rules for the recorder (inject.h). */
	CHECK_EQ_INT(sonde_strace_opt(&o, 'e', "inject=close:error=EIO", err, sizeof(err)), 0);
	CHECK_EQ_INT(sonde_strace_opt(&o, 'e', "fault=dup:when=2+", err, sizeof(err)), 0);
	CHECK(o.inject.n == 2 && sonde_inject_rule_for(&o.inject, SYS_dup)->error == ENOSYS);
	CHECK_EQ_INT(sonde_strace_opt(&o, 'e', "inject=close", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "error=") != NULL);
	sonde_strace_opts_release(&o);
	CHECK_EQ_INT(o.inject.n, 0);
}

/* The mask the call passes, in JSON whatever -e verbose= says. */
static int json_has_mask(const struct sonde_strace_opts *o)
{
	struct sonde_line a = { 0 }, r = { 0 };
	int found;

	T.call.sc = &T.sc;
	T.call.pl = T.pl;
	T.call.npl = T.npl;
	found = !sonde_strace_json(o, &T.call, &a, &r) && a.buf &&
		strstr(a.buf, "\"nset\":[\"SIGCHLD\"]") != NULL;
	sonde_line_free(&a);
	sonde_line_free(&r);
	return found;
}

/* -e verbose=SET: the calls outside SET show their structs and arrays as
 * addresses, as strace 6.1 does (its own lines, checked on this
 * machine); strings stay; all is no set; JSON keeps the values. */
TEST(verbose_sets)
{
	uint64_t mask = 1ULL << (SIGCHLD - 1);
	struct sonde_strace_opts o;
	char err[160];

	sonde_strace_opts_init(&o);
	tc_new(&T, SYS_rt_sigprocmask, 0, SIG_BLOCK, 0x7ffd1000, 0, 8, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x7ffd1000, &mask, sizeof(mask));
	CHECK_EQ_INT(sonde_strace_opt(&o, 'e', "verbose=%signal", err, sizeof(err)), 0);
	CHECK_EQ_INT(o.deref_on, 1);
	CHECK_EQ_STR(tc_fmt_opts(&T, &o), "rt_sigprocmask(SIG_BLOCK, [CHLD], NULL, 8) = 0");
	CHECK_EQ_INT(sonde_strace_opt(&o, 'e', "v=!%signal", err, sizeof(err)), 0);
	CHECK_EQ_STR(tc_fmt_opts(&T, &o), "rt_sigprocmask(SIG_BLOCK, 0x7ffd1000, NULL, 8) = 0");
	CHECK(json_has_mask(&o));
	tc_new(&T, SYS_openat, 3, (uint64_t)AT_FDCWD, 0x1000, O_RDONLY, 0, 0, 0);
	tc_str(&T, 1, 0x1000, "/etc/hostname");
	CHECK_EQ_INT(sonde_strace_opt(&o, 'e', "verbose=none", err, sizeof(err)), 0);
	CHECK_EQ_STR(tc_fmt_opts(&T, &o), "openat(AT_FDCWD, \"/etc/hostname\", O_RDONLY) = 3");
	CHECK_EQ_INT(sonde_strace_opt(&o, 'e', "verbose=/^rt_,all", err, sizeof(err)), 0);
	CHECK_EQ_INT(o.deref_on, 0);
	CHECK_EQ_INT(sonde_strace_opt(&o, 'e', "verbose=nosuch", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "nosuch") != NULL);
}

int main(void)
{
	RUN(path_by_argument_and_descriptor);
	RUN(path_realpath);
	RUN(quiet_levels);
	RUN(exit_and_stop_lines);
	RUN(syscall_numbers_and_raw);
	RUN(verbose_sets);
	return check_any_failed_;
}
