// SPDX-License-Identifier: GPL-2.0
/*
 * Starting the command stopped: the child is forked before tracing starts
 * and waits on a pipe; the parent puts it in the traced set and releases
 * it, and the child's first system call after the release is its execve of
 * the already resolved program. That makes the execve the first recorded
 * syscall, as with strace -f: the read that was blocked on the pipe entered
 * before the child was traced, so its exit has no entry state; the parent
 * marks it SONDE_INFLIGHT_SKIP, so that it is not taken for a call a
 * seccomp filter answered (sonde run under one, in a container) either.
 *
 *   parent                        child
 *   pipe2(go), pipe2(errp)
 *   fork ----------------------->  read(go) ... blocks
 *   trace_tgid(child)
 *   write(go) ------------------>  read returns
 *                                  execve(path)   <- first recorded
 *   read(errp): EOF = exec done    on failure: write(errp, errno), _exit
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <grp.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "record/rec_int.h"

extern char **environ;

/*
 * strace -u: groups, then group, then user (after setuid the others are no
 * longer allowed). Before the child waits on its pipe, so that none of
 * these calls is traced: the execve stays the first recorded call.
 */
static int child_run_as(const struct sonde_run_as *ra)
{
	if (!ra)
		return 0;
	if (setgroups(ra->ngroups, ra->groups) || setgid(ra->gid) || setuid(ra->uid))
		return errno;
	return 0;
}

/*
 * -e inject: the command's seccomp filter, with a listener the recorder
 * takes from /proc (sonde_inject_take_listener). As root, before -u drops
 * privileges: no PR_SET_NO_NEW_PRIVS, which would change what the command
 * may do (setuid programs). The calls it names from here to the execve
 * are let through by the supervisor, uncounted.
 */
static int child_filter(const struct sock_fprog *fp)
{
	/* Once the supervisor has a notification only a fatal signal ends
	 * the wait: signal= is sent before the answer and taken as the call
	 * returns (an interrupted wait would restart the call). */
	unsigned long flags =
		SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV;

	if (fp && syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, fp) < 0)
		return errno;
	return 0;
}

/* In the child between fork and execve: only async-signal-safe calls. */
static void __attribute__((noreturn))
child_main(int go, int errp, const char *path, const struct sonde_record_opts *o,
	   const struct sock_fprog *fp)
{
	sigset_t none;
	char c = 0;
	int e;

	/* The recorder blocks SIGINT/SIGTERM to take them synchronously;
	 * the command must get its signals normally. */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	e = child_filter(fp);
	if (!e)
		e = child_run_as(o->run_as);
	while (read(go, &c, 1) < 0 && errno == EINTR)
		;
	if (c != 'g')
		_exit(1); /* the recorder gave up: it reports why */
	if (!e) {
		execve(path, o->argv, o->envp ? o->envp : environ);
		e = errno;
	}
	while (write(errp, &e, sizeof(e)) < 0 && errno == EINTR)
		;
	_exit(e == ENOENT ? 127 : 126);
}

/*
 * Waits (at most 2 s) until the child sits in read(2) on the go pipe, as
 * /proc/PID/syscall shows ("0 0xFD ..." while blocked in read), so that
 * none of its set-up calls run after it joins the traced set. 1 once it
 * does, 0 if it never did.
 */
static int child_wait_blocked(pid_t pid, int fd)
{
	char want[32], buf[128];
	struct timespec t = { 0, 200000 };
	int n;

	n = snprintf(want, sizeof(want), "0 0x%x ", fd);
	for (int i = 0; i < 10000; i++) {
		if (rec_proc_read(pid, "syscall", buf, sizeof(buf)) < 0)
			return 0;
		/* Under -e inject's filter the read may still wait for the
		 * supervisor's answer: the pipe's wait shows in wchan. */
		if (!strncmp(buf, want, n) &&
		    (rec_proc_read(pid, "wchan", buf, sizeof(buf)) <= 1 || strstr(buf, "pipe_read")))
			return 1;
		nanosleep(&t, NULL);
	}
	return 0;
}

static int spawn_fail(char *err, size_t errlen, const struct sonde_record_opts *o, int e)
{
	snprintf(err, errlen, "starting %s: %s", o->argv[0], strerror(e));
	return -e;
}

/* -e inject: the filter's listener, taken from the child, and the
 * supervisor, which answers the child's calls before the release too. */
static int child_inject(struct rec_child *ch, const struct sonde_record_opts *o, char *err,
			size_t errlen)
{
	int listener, e;

	listener = sonde_inject_take_listener(ch->pid);
	if (listener < 0) {
		/* It may wait for an answer no one will give. */
		kill(ch->pid, SIGKILL);
		snprintf(err, errlen,
			 "-e inject: the command's seccomp filter could not be "
			 "installed or its listener taken (%s)",
			 strerror(-listener));
		return listener;
	}
	e = sonde_inject_start(&ch->sup, o->inject, listener, ch->pid);
	if (e) {
		kill(ch->pid, SIGKILL);
		close(listener);
		snprintf(err, errlen, "-e inject: starting the supervisor: %s", strerror(-e));
	}
	return e;
}

int rec_child_spawn(struct rec_child *ch, const char *path, const struct sonde_record_opts *o,
		    char *err, size_t errlen)
{
	struct sock_fprog fp = { 0 };
	int go[2], errp[2], e;

	ch->pid = -1;
	ch->go_fd = ch->err_fd = -1;
	ch->sup = NULL;
	if (o->inject && o->inject->n && sonde_inject_filter(o->inject, &fp.filter, &fp.len))
		return spawn_fail(err, errlen, o, ENOMEM);
	if (pipe2(go, O_CLOEXEC)) {
		e = errno;
		free(fp.filter);
		return spawn_fail(err, errlen, o, e);
	}
	if (pipe2(errp, O_CLOEXEC)) {
		e = errno;
		close(go[0]);
		close(go[1]);
		free(fp.filter);
		return spawn_fail(err, errlen, o, e);
	}
	ch->pid = fork();
	if (ch->pid == 0) {
		close(go[1]);
		close(errp[0]);
		child_main(go[0], errp[1], path, o, fp.filter ? &fp : NULL);
	}
	e = errno;
	free(fp.filter);
	close(errp[1]);
	if (ch->pid < 0) {
		close(go[0]);
		close(go[1]);
		close(errp[0]);
		return spawn_fail(err, errlen, o, e);
	}
	ch->go_fd = go[1];
	ch->err_fd = errp[0];
	e = fp.filter ? child_inject(ch, o, err, errlen) : 0;
	if (!e)
		ch->blocked = child_wait_blocked(ch->pid, go[0]);
	close(go[0]);
	return e;
}

int rec_child_release(struct rec_child *ch, int marks_fd)
{
	ssize_t n;
	int e = 0;

	sonde_inject_released(ch->sup, marks_fd);

	while (write(ch->go_fd, "g", 1) < 0 && errno == EINTR)
		;
	close(ch->go_fd);
	ch->go_fd = -1;
	do
		n = read(ch->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(ch->err_fd);
	ch->err_fd = -1;
	return n == sizeof(e) ? -e : 0;
}

/*
 * Setup failed after the fork: the child exits without running anything.
 * -D's command is left its go pipe until this process exits: it then
 * reads EOF and exits 1 after the caller has said what failed, not
 * before (its parent, a shell, would print its prompt first).
 */
void rec_child_kill(struct rec_child *ch)
{
	if (!ch->adopted) {
		if (ch->go_fd >= 0)
			close(ch->go_fd);
		if (ch->err_fd >= 0)
			close(ch->err_fd);
		ch->go_fd = ch->err_fd = -1;
		if (ch->pid > 0)
			waitpid(ch->pid, NULL, 0);
	}
	ch->pid = -1;
	sonde_inject_stop(ch->sup);
	ch->sup = NULL;
}

/*
 * -D: the process that ran sonde becomes the command, so the command keeps
 * its parent (a shell's $!, a service manager's main pid) and its status
 * goes to that parent alone. The recorder runs on in a grandchild, which
 * the middle process's exit hands to init (or the nearest subreaper):
 *
 *   caller P                  middle M               recorder G
 *   pipe2(go), pipe2(errp)
 *   fork ------------------>  fork ---------------->  [setpgid | setsid]
 *   waitpid(M) <------------  _exit(0)                sonde_record_run:
 *   read(go) ... blocks                                 trace P, write(go)
 *   execve(path)   <- first recorded call of P
 */
static struct sonde_record_adopt adopted; /* one command per process */

/* In M: returns in G only. */
static void daemon_fork_grandchild(enum sonde_daemonize how)
{
	pid_t g = fork();

	if (g)
		_exit(g < 0 ? 1 : 0);
	/* -DD keeps kill(0, ...) and the terminal's ^C of P's group from the
	 * recorder; -DDD also the hangup of P's session. */
	if (how == SONDE_DAEMON_PGROUP)
		setpgid(0, 0);
	else if (how == SONDE_DAEMON_SESSION)
		setsid();
}

static int daemon_pipes(int go[2], int errp[2], char *err, size_t errlen)
{
	int e = 0;

	if (pipe2(go, O_CLOEXEC)) {
		e = errno;
	} else if (pipe2(errp, O_CLOEXEC)) {
		e = errno;
		close(go[0]);
		close(go[1]);
	}
	if (e)
		snprintf(err, errlen, "-D: pipe2: %s", strerror(e));
	return -e;
}

/* In P: the middle process exited 0 once G existed. */
static int daemon_wait_middle(pid_t m, char *err, size_t errlen)
{
	int st = 0, e = errno;

	if (m < 0) {
		snprintf(err, errlen, "-D: fork: %s", strerror(e));
		return -e;
	}
	while (waitpid(m, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		return 0;
	snprintf(err, errlen, "-D: the recorder could not be forked");
	return -EAGAIN;
}

int sonde_record_daemonize(struct sonde_record_opts *o, enum sonde_daemonize how,
			   struct sonde_record_summary *sum, char *err, size_t errlen)
{
	struct sock_fprog fp = { 0 };
	char path[PATH_MAX];
	int go[2], errp[2], e;
	pid_t self = getpid(), m;

	e = record_resolve(o, path, sum, err, errlen);
	if (!e)
		e = record_check_env(err, errlen);
	if (e)
		return e;
	if (o->inject && o->inject->n && sonde_inject_filter(o->inject, &fp.filter, &fp.len)) {
		snprintf(err, errlen, "-e inject: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	e = daemon_pipes(go, errp, err, errlen);
	if (e)
		goto out;
	m = fork();
	if (m == 0) {
		daemon_fork_grandchild(how);
		close(errp[1]);
		adopted = (struct sonde_record_adopt){
			.pid = self, .go_fd = go[1], .go_read = go[0], .err_fd = errp[0]
		};
		o->adopt = &adopted;
		goto out;
	}
	e = daemon_wait_middle(m, err, errlen);
	if (e) {
		close(go[0]);
		close(go[1]);
		close(errp[0]);
		close(errp[1]);
		goto out;
	}
	close(go[1]);
	close(errp[0]);
	child_main(go[0], errp[1], path, o, fp.filter ? &fp : NULL);
out:
	free(fp.filter);
	return e;
}

int rec_child_adopt(struct rec_child *ch, const struct sonde_record_opts *o, char *err,
		    size_t errlen)
{
	const struct sonde_record_adopt *a = o->adopt;
	int e = 0;

	*ch = (struct rec_child){
		.pid = a->pid, .go_fd = a->go_fd, .err_fd = a->err_fd, .adopted = true
	};
	if (o->inject && o->inject->n)
		e = child_inject(ch, o, err, errlen);
	if (!e)
		ch->blocked = child_wait_blocked(ch->pid, a->go_read);
	close(a->go_read);
	return e;
}
