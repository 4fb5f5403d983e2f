// SPDX-License-Identifier: GPL-2.0
/*
 * Starting the command stopped: the child is forked before tracing starts
 * and waits on a pipe; the parent puts it in the traced set and releases
 * it, and the child's first system call after the release is its execve of
 * the already resolved program. That makes the execve the first recorded
 * syscall, as with strace -f: the read that was blocked on the pipe entered
 * before the child was traced, so its exit has no entry state and is not
 * recorded.
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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <grp.h>
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

/* In the child between fork and execve: only async-signal-safe calls. */
static void child_main(int go, int errp, const char *path, const struct sonde_record_opts *o)
{
	sigset_t none;
	char c;
	int e;

	/* The recorder blocks SIGINT/SIGTERM to take them synchronously;
	 * the command must get its signals normally. */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	e = child_run_as(o->run_as);
	while (read(go, &c, 1) < 0 && errno == EINTR)
		;
	if (c != 'g')
		_exit(127); /* the recorder gave up: it reports why */
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
 * none of its set-up calls run after it joins the traced set.
 */
static void child_wait_blocked(pid_t pid, int fd)
{
	char path[64], want[32], buf[128];
	struct timespec t = { 0, 200000 };
	int n;

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	n = snprintf(want, sizeof(want), "0 0x%x ", fd);
	for (int i = 0; i < 10000; i++) {
		int f = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t len = f < 0 ? -1 : read(f, buf, sizeof(buf) - 1);

		if (f >= 0)
			close(f);
		if (len < 0)
			return;
		buf[len] = 0;
		if (!strncmp(buf, want, n))
			return;
		nanosleep(&t, NULL);
	}
}

int rec_child_spawn(struct rec_child *ch, const char *path, const struct sonde_record_opts *o,
		    char *err, size_t errlen)
{
	int go[2], errp[2], child_fd;

	ch->pid = -1;
	ch->go_fd = ch->err_fd = -1;
	if (pipe2(go, O_CLOEXEC))
		goto fail;
	if (pipe2(errp, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		goto fail;
	}
	child_fd = go[0];
	ch->pid = fork();
	if (ch->pid == 0) {
		close(go[1]);
		close(errp[0]);
		child_main(go[0], errp[1], path, o);
	}
	close(go[0]);
	close(errp[1]);
	if (ch->pid < 0) {
		close(go[1]);
		close(errp[0]);
		goto fail;
	}
	ch->go_fd = go[1];
	ch->err_fd = errp[0];
	child_wait_blocked(ch->pid, child_fd);
	return 0;
fail:
	snprintf(err, errlen, "starting %s: %s", o->argv[0], strerror(errno));
	return -errno;
}

int rec_child_release(struct rec_child *ch)
{
	ssize_t n;
	int e = 0;

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

/* Setup failed after the fork: the child exits without running anything. */
void rec_child_kill(struct rec_child *ch)
{
	if (ch->go_fd >= 0)
		close(ch->go_fd);
	if (ch->err_fd >= 0)
		close(ch->err_fd);
	ch->go_fd = ch->err_fd = -1;
	if (ch->pid > 0)
		waitpid(ch->pid, NULL, 0);
	ch->pid = -1;
}
