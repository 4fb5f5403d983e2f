// SPDX-License-Identifier: GPL-2.0
/*
 * The supervisor of -e inject= (include/sonde/inject.h): a thread of the
 * recorder that answers the seccomp notifications of the command's filter.
 * For each one: the rule of the call, this thread's count of that call
 * (strace counts per tracee and per call), and if when= picks it:
 *
 *   delay_enter=     hold the call, then
 *   poke_enter=      write its memory (/proc/TID/mem: also read-only
 *                    pages, as ptrace's pokes do)
 *   error=/retval=   answer in its place (the kernel never runs it), after
 *                    delay_exit= and poke_exit=
 *   otherwise        let it run (SECCOMP_USER_NOTIF_FLAG_CONTINUE)
 *   signal=          sent to the thread (tkill) before the answer, so it
 *                    is pending when the call returns
 *
 * The call's record gets its marks through the BPF map inject_marks,
 * written before the answer (record_bpf.h). A held call waits in a thread
 * of its own, so that the others are answered meanwhile. The launcher's
 * own calls before its release (sonde_inject_released) and the command's
 * execve run untouched and uncounted.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <sonde/events.h>
#include <sonde/inject.h>
#include <sonde/record_bpf.h>

/* Invocations of one call by one thread. */
struct count_ent {
	uint64_t key; /* tid << 32 | nr; 0 = free */
	uint64_t n;
};

struct sonde_inject_sup {
	const struct sonde_inject *inj;
	int listener, marks_fd, stop_fd[2];
	pid_t launch_pid;
	atomic_bool released;
	bool launched; /* the command's execve let through */
	struct count_ent *counts;
	size_t cap, used;
	pthread_t thread;
	/* Answers waiting in threads of their own, and their wakeup: the
	 * end of their delay, or sonde_inject_stop (stopping). */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	int held;
	bool stopping;
};

/* One answer, maybe held for a while first. */
struct answer {
	struct sonde_inject_sup *s;
	struct seccomp_notif_resp resp;
	uint64_t delay_ns;
};

static uint64_t *count_slot(struct sonde_inject_sup *s, uint64_t key)
{
	size_t i;

	if (2 * (s->used + 1) > s->cap) {
		struct count_ent *old = s->counts;
		size_t oldcap = s->cap;

		s->cap = s->cap ? 2 * s->cap : 256;
		s->counts = calloc(s->cap, sizeof(*s->counts));
		if (!s->counts) {
			s->counts = old;
			s->cap = oldcap;
			return NULL;
		}
		s->used = 0;
		for (size_t k = 0; k < oldcap; k++)
			if (old[k].key)
				*count_slot(s, old[k].key) = old[k].n;
		free(old);
	}
	for (i = (key * 0x9e3779b97f4a7c15ull) & (s->cap - 1); s->counts[i].key;
	     i = (i + 1) & (s->cap - 1))
		if (s->counts[i].key == key)
			return &s->counts[i].n;
	s->counts[i].key = key;
	s->used++;
	return &s->counts[i].n;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec t = { .tv_sec = (time_t)(ns / 1000000000u),
			      .tv_nsec = (long)(ns % 1000000000u) };

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

/* The target may have died meanwhile (ENOENT): nothing to answer then. */
static void answer_send(struct sonde_inject_sup *s, struct seccomp_notif_resp *resp)
{
	ioctl(s->listener, SECCOMP_IOCTL_NOTIF_SEND, resp);
}

/* A held call: answered when its delay ends, or at once when sonde
 * stops (the answer must not outlive the listener). */
static void *answer_later(void *arg)
{
	struct answer *a = arg;
	struct sonde_inject_sup *s = a->s;
	struct timespec until;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += (time_t)(a->delay_ns / 1000000000u) +
			(until.tv_nsec + (long)(a->delay_ns % 1000000000u)) / 1000000000;
	until.tv_nsec = (until.tv_nsec + (long)(a->delay_ns % 1000000000u)) % 1000000000;
	pthread_mutex_lock(&s->lock);
	while (!s->stopping && pthread_cond_timedwait(&s->wake, &s->lock, &until) != ETIMEDOUT)
		;
	pthread_mutex_unlock(&s->lock);
	answer_send(s, &a->resp);
	pthread_mutex_lock(&s->lock);
	s->held--;
	pthread_cond_broadcast(&s->wake);
	pthread_mutex_unlock(&s->lock);
	free(a);
	return NULL;
}

/* Writes a rule's pokes of one phase into the thread's memory. */
static int pokes_write(pid_t tid, const struct sonde_inject_rule *r, const __u64 *args, bool exit)
{
	char path[64];
	int fd, done = 0;

	snprintf(path, sizeof(path), "/proc/%d/mem", (int)tid);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	for (size_t i = 0; i < r->npokes; i++) {
		const struct sonde_inject_poke *p = &r->pokes[i];

		if (p->exit != exit)
			continue;
		if (pwrite(fd, p->data, p->len, (off_t)args[p->arg]) == (ssize_t)p->len)
			done = 1;
	}
	close(fd);
	return done;
}

static void mark(struct sonde_inject_sup *s, uint32_t tid, uint32_t nr, uint16_t flags)
{
	struct sonde_inject_mark m = { .nr = nr, .flags = flags };

	if (flags)
		bpf_map_update_elem(s->marks_fd, &tid, &m, BPF_ANY);
}

/* What to do with one notification; fills resp, returns the hold time. */
static uint64_t decide(struct sonde_inject_sup *s, const struct seccomp_notif *req,
		       struct seccomp_notif_resp *resp)
{
	const struct sonde_inject_rule *r =
		sonde_inject_rule_for(s->inj, (unsigned int)req->data.nr);
	uint64_t *n, delay = 0;
	uint16_t flags = 0;

	resp->id = req->id;
	resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	if (!r)
		return 0;
	/* The launcher's calls before the release, then the command's
	 * execve, its first call after it, which strace does not count
	 * either (it starts tracing there). */
	if ((pid_t)req->pid == s->launch_pid && !s->launched) {
		if (!atomic_load(&s->released))
			return 0;
		s->launched = true;
		if (req->data.nr == SYS_execve || req->data.nr == SYS_execveat)
			return 0;
	}
	n = count_slot(s, (uint64_t)req->pid << 32 | (uint32_t)req->data.nr);
	if (!n || !sonde_inject_when_hits(&r->when, ++*n))
		return 0;
	delay = r->delay_enter_ns;
	if (r->npokes && pokes_write((pid_t)req->pid, r, req->data.args, false))
		flags |= SONDE_SC_POKED;
	if (r->error || r->has_retval) {
		delay += r->delay_exit_ns;
		if (r->npokes && pokes_write((pid_t)req->pid, r, req->data.args, true))
			flags |= SONDE_SC_POKED;
		flags |= SONDE_SC_INJECTED;
		resp->flags = 0;
		resp->error = r->error ? -r->error : 0;
		resp->val = r->error ? 0 : (int64_t)r->retval;
	} else {
		/* The call runs after the answer: a delay at its exit is
		 * served before it (sonde-strace(1)). */
		delay += r->delay_exit_ns;
	}
	if (delay)
		flags |= SONDE_SC_DELAYED;
	mark(s, req->pid, (uint32_t)req->data.nr, flags);
	if (r->signal)
		syscall(SYS_tkill, (pid_t)req->pid, r->signal);
	return delay;
}

static void handle(struct sonde_inject_sup *s)
{
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;
	struct answer *a;
	pthread_t t;
	uint64_t delay;

	memset(&req, 0, sizeof(req));
	if (ioctl(s->listener, SECCOMP_IOCTL_NOTIF_RECV, &req))
		return; /* the caller died before we read it (ENOENT) */
	memset(&resp, 0, sizeof(resp));
	delay = decide(s, &req, &resp);
	if (!delay) {
		answer_send(s, &resp);
		return;
	}
	a = malloc(sizeof(*a));
	if (a) {
		*a = (struct answer){ .s = s, .resp = resp, .delay_ns = delay };
		pthread_mutex_lock(&s->lock);
		s->held++;
		pthread_mutex_unlock(&s->lock);
		if (!pthread_create(&t, NULL, answer_later, a)) {
			pthread_detach(t);
			return;
		}
		pthread_mutex_lock(&s->lock);
		s->held--;
		pthread_mutex_unlock(&s->lock);
		free(a);
	}
	sleep_ns(delay); /* no thread: hold here */
	answer_send(s, &resp);
}

static void *supervise(void *arg)
{
	struct sonde_inject_sup *s = arg;
	struct pollfd p[2] = { { .fd = s->listener, .events = POLLIN },
			       { .fd = s->stop_fd[0], .events = POLLIN } };

	for (;;) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[1].revents)
			break;
		if (p[0].revents & POLLIN)
			handle(s);
		else if (p[0].revents & (POLLHUP | POLLERR))
			break; /* every task under the filter is gone */
	}
	return NULL;
}

/*
 * Linux 6.6's SECCOMP_IOCTL_NOTIF_SET_FLAGS with
 * SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (not in Debian 12's headers): the
 * caller and the supervisor hand the CPU to each other on the wakeup, as
 * a synchronous call would, instead of a wakeup on another CPU. Best
 * effort: older kernels answer EINVAL, and the answers just come later.
 */
#define NOTIF_SET_FLAGS _IOW('!', 4, __u64)
#define NOTIF_FD_SYNC_WAKE_UP 1

int sonde_inject_start(struct sonde_inject_sup **out, const struct sonde_inject *inj, int listener,
		       pid_t launch_pid)
{
	struct sonde_inject_sup *s = calloc(1, sizeof(*s));
	pthread_condattr_t ca;
	int e;

	if (!s)
		return -ENOMEM;
	s->inj = inj;
	s->listener = listener;
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); /* as answer_later's deadline */
	pthread_cond_init(&s->wake, &ca);
	pthread_condattr_destroy(&ca);
	ioctl(listener, NOTIF_SET_FLAGS, (__u64)NOTIF_FD_SYNC_WAKE_UP);
	s->marks_fd = -1;
	s->launch_pid = launch_pid;
	if (pipe2(s->stop_fd, O_CLOEXEC)) {
		e = -errno;
		goto fail;
	}
	e = -pthread_create(&s->thread, NULL, supervise, s);
	if (e) {
		close(s->stop_fd[0]);
		close(s->stop_fd[1]);
		goto fail;
	}
	*out = s;
	return 0;
fail:
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->wake);
	free(s);
	return e;
}

void sonde_inject_released(struct sonde_inject_sup *s, int marks_fd)
{
	if (!s)
		return;
	s->marks_fd = marks_fd;
	atomic_store(&s->released, true);
}

int sonde_inject_take_listener(pid_t pid)
{
	struct timespec t = { 0, 1000000 };
	char dir[64], path[320], link[64];
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0), fd = -ENOENT;

	if (pidfd < 0)
		return -errno;
	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
	for (int i = 0; i < 2000 && fd == -ENOENT; i++) {
		DIR *d = opendir(dir);
		struct dirent *de;

		while (d && (de = readdir(d)) && fd == -ENOENT) {
			ssize_t n;

			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			n = readlink(path, link, sizeof(link) - 1);
			if (n < 0)
				continue;
			link[n] = 0;
			if (!strcmp(link, "anon_inode:seccomp notify"))
				fd = (int)syscall(SYS_pidfd_getfd, pidfd, atoi(de->d_name), 0);
			if (fd < 0 && fd != -ENOENT)
				fd = -errno;
		}
		if (d)
			closedir(d);
		if (fd == -ENOENT)
			nanosleep(&t, NULL);
	}
	close(pidfd);
	return fd;
}

void sonde_inject_stop(struct sonde_inject_sup *s)
{
	if (!s)
		return;
	while (write(s->stop_fd[1], "x", 1) < 0 && errno == EINTR)
		;
	pthread_join(s->thread, NULL);
	/* Held answers still use the listener: they go now. */
	pthread_mutex_lock(&s->lock);
	s->stopping = true;
	pthread_cond_broadcast(&s->wake);
	while (s->held)
		pthread_cond_wait(&s->wake, &s->lock);
	pthread_mutex_unlock(&s->lock);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->wake);
	close(s->stop_fd[0]);
	close(s->stop_fd[1]);
	close(s->listener);
	free(s->counts);
	free(s);
}
