// SPDX-License-Identifier: GPL-2.0
/*
 * Offline descriptor tables for -y: what each descriptor of each task
 * refers to, rebuilt from the calls in the trace (open, socket, pipe,
 * dup*, fcntl F_DUPFD, close, chdir, execve's close-on-exec) and from
 * fork records (tables copied, or shared under CLONE_FILES; the working
 * directory shared under CLONE_FS).
 *
 *   tid ──> struct task ──> struct files {refs, fd[] -> {path, cloexec}}
 *                      └──> struct fsinfo {refs, cwd}
 *
 * Paths are made absolute and cleaned lexically ("." and ".."), without
 * resolving symbolic links: the trace does not hold the file system.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <linux/types.h>
#include <linux/seccomp.h>

#include <sonde/events.h>
#include <sonde/payload.h>
#include <sonde/strace.h>
#include "decode/strace/fdtab.h"
#include "decode/strace/fdpath.h"
#include "decode/strace/sdcache.h"


struct fdent {
	char *path;
	uint64_t ino;  /* a socket's inode: its -yy name (struct fdtab.socks) */
	int pid;       /* a pidfd's process: its -yy name "pid:N" */
	int cloexec;
};

static void fdent_clear(struct fdent *e)
{
	free(e->path);
	e->path = NULL;
	e->ino = 0;
	e->pid = 0;
}

struct files {
	int refs;
	int n;
	struct fdent *fd;
};

struct fsinfo {
	int refs;
	char *cwd;
};

struct task {
	uint32_t tid;
	struct files *files;
	struct fsinfo *fs;
};

/* Socket facts and when they were read (the call's exit): lines print in
 * the order calls entered, so a call's facts may be known before the
 * line of a call that ran before them. */
struct sockfact {
	struct sonde_sockinfo si;
	uint64_t at;
};

struct fdtab {
	struct task *tasks; /* open addressing on tid, 0 = free */
	size_t cap, used;
	struct task tmpl;   /* what a task seen for the first time inherits */
	int links;	    /* resolve symbolic links (fdtab_resolve_links) */
	struct sockfact *socks; /* -yy: what was said of each socket, when */
	size_t nsocks, capsocks;
	struct sdcache *sd;	/* what strace would have cached of them */
};

struct fdtab *fdtab_new(void)
{
	return calloc(1, sizeof(struct fdtab));
}

void fdtab_resolve_links(struct fdtab *t, int on)
{
	t->links = on;
}

static void files_put(struct files *f)
{
	if (!f || --f->refs)
		return;
	for (int i = 0; i < f->n; i++)
		fdent_clear(&f->fd[i]);
	free(f->fd);
	free(f);
}

static void fs_put(struct fsinfo *fs)
{
	if (!fs || --fs->refs)
		return;
	free(fs->cwd);
	free(fs);
}

void fdtab_free(struct fdtab *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->tasks[i].tid)
			continue;
		files_put(t->tasks[i].files);
		fs_put(t->tasks[i].fs);
	}
	files_put(t->tmpl.files);
	fs_put(t->tmpl.fs);
	free(t->socks);
	sdcache_free(t->sd);
	free(t->tasks);
	free(t);
}

static struct task *task_slot(struct fdtab *t, uint32_t tid)
{
	size_t i;

	if (!t->cap)
		return NULL;
	i = (tid * 2654435761u) & (t->cap - 1);
	while (t->tasks[i].tid && t->tasks[i].tid != tid)
		i = (i + 1) & (t->cap - 1);
	return &t->tasks[i];
}

static int grow(struct fdtab *t)
{
	struct task *old = t->tasks;
	size_t ocap = t->cap, ncap = ocap ? ocap * 2 : 64;

	t->tasks = calloc(ncap, sizeof(*t->tasks));
	if (!t->tasks) {
		t->tasks = old;
		return -ENOMEM;
	}
	t->cap = ncap;
	for (size_t i = 0; i < ocap; i++)
		if (old[i].tid)
			*task_slot(t, old[i].tid) = old[i];
	free(old);
	return 0;
}

static struct files *files_copy(const struct files *f);

/*
 * The task's entry, created when unknown: empty, or a copy of the
 * template (tid 0) that holds the descriptors every traced command
 * inherits (sonde strace's own 0, 1, 2 and working directory).
 */
/* tid 0 marks a free slot: never a task's (a hostile file may say it). */
static struct task *task_get(struct fdtab *t, uint32_t tid)
{
	struct task *k = task_slot(t, tid);
	struct task *tmpl;

	if (!tid)
		return NULL;
	if (k && k->tid == tid)
		return k;
	if ((t->used + 1) * 2 > t->cap && grow(t))
		return NULL;
	k = task_slot(t, tid);
	k->files = calloc(1, sizeof(*k->files));
	k->fs = calloc(1, sizeof(*k->fs));
	if (!k->files || !k->fs) {
		free(k->files);
		free(k->fs);
		k->files = NULL;
		k->fs = NULL;
		return NULL;
	}
	k->files->refs = 1;
	k->fs->refs = 1;
	k->tid = tid;
	t->used++;
	tmpl = &t->tmpl;
	if (tmpl->files) {
		struct files *f = files_copy(tmpl->files);

		if (f) {
			files_put(k->files);
			k->files = f;
		}
		if (tmpl->fs && tmpl->fs->cwd)
			k->fs->cwd = strdup(tmpl->fs->cwd);
	}
	return k;
}

static struct task *task_find(struct fdtab *t, uint32_t tid)
{
	struct task *k = task_slot(t, tid);

	return tid && k && k->tid == tid ? k : NULL;
}

static int fd_set_path(struct files *f, int fd, const char *path, int cloexec)
{
	char *p;

	if (fd < 0 || fd > (1 << 20))
		return -EINVAL;
	if (fd >= f->n) {
		int n = f->n ? f->n : 16;
		struct fdent *e;

		while (n <= fd)
			n *= 2;
		e = realloc(f->fd, (size_t)n * sizeof(*e));
		if (!e)
			return -ENOMEM;
		memset(e + f->n, 0, (size_t)(n - f->n) * sizeof(*e));
		f->fd = e;
		f->n = n;
	}
	p = path ? strdup(path) : NULL;
	if (path && !p)
		return -ENOMEM;
	fdent_clear(&f->fd[fd]);
	f->fd[fd].path = p;
	f->fd[fd].cloexec = cloexec;
	if (p && sscanf(p, "socket:[%" SCNu64 "]", &f->fd[fd].ino) != 1)
		f->fd[fd].ino = 0;
	return 0;
}



static struct fdent *fd_ent(struct fdtab *t, uint32_t tid, int fd)
{
	struct task *k = task_find(t, tid);

	/* A task not seen yet has what every task inherits. */
	if (!k && t->tmpl.files)
		k = &t->tmpl;
	if (!k || fd < 0 || fd >= k->files->n)
		return NULL;
	return &k->files->fd[fd];
}

const char *fdtab_path(struct fdtab *t, uint32_t tid, int fd)
{
	struct task *k = task_find(t, tid);
	struct fdent *e;

	if (fd == -100) {
		if (!k && t->tmpl.files)
			k = &t->tmpl;
		return k ? k->fs->cwd : NULL;
	}
	e = fd_ent(t, tid, fd);
	return e ? e->path : NULL;
}

/* The facts of socket ino as they were at when: the latest read by then,
 * else the first read (a socket the trace names only later). */
static struct sockfact *sock_find(struct fdtab *t, uint64_t ino, uint64_t when)
{
	struct sockfact *best = NULL, *first = NULL;

	for (size_t i = 0; i < t->nsocks; i++) {
		struct sockfact *k = &t->socks[i];

		if (k->si.ino != ino)
			continue;
		if (k->at <= when && (!best || k->at >= best->at))
			best = k;
		if (!first || k->at < first->at)
			first = k;
	}
	return best ? best : first;
}

const char *fdtab_detail(struct fdtab *t, uint32_t tid, int fd, uint64_t when, char *buf,
			 size_t len)
{
	struct fdent *e = fd_ent(t, tid, fd);
	const struct sockfact *k = e && e->ino ? sock_find(t, e->ino, when) : NULL;

	if (e && e->pid) {
		snprintf(buf, len, "pid:%d", e->pid);
		return buf;
	}
	if (!k)
		return NULL;
	sonde_sockinfo_name(sdcache_get(&t->sd, &k->si, when), buf, len);
	return buf;
}

const struct sonde_sockinfo *fdtab_sockinfo(struct fdtab *t, uint32_t tid, int fd,
					    uint64_t when)
{
	struct fdent *e = fd_ent(t, tid, fd);
	const struct sockfact *k = e && e->ino ? sock_find(t, e->ino, when) : NULL;

	return k ? sdcache_get(&t->sd, &k->si, when) : NULL;
}

static struct sockfact *sock_add(struct fdtab *t, const struct sonde_sockinfo *si, uint64_t at)
{
	if (t->nsocks == t->capsocks) {
		size_t cap = t->capsocks ? t->capsocks * 2 : 16;
		struct sockfact *n = realloc(t->socks, cap * sizeof(*n));

		if (!n)
			return NULL;
		t->socks = n;
		t->capsocks = cap;
	}
	t->socks[t->nsocks].si = *si;
	t->socks[t->nsocks].at = at;
	return &t->socks[t->nsocks++];
}

int fdtab_sock(struct fdtab *t, uint32_t tid, const struct sonde_sockinfo *si, uint64_t at)
{
	struct fdent *e = fd_ent(t, tid, si->fd);
	struct sockfact *peer;
	struct sonde_sockinfo p;
	char name[48];

	/* A socket the tables did not know (inherited, received). */
	if (!e || e->ino != si->ino) {
		snprintf(name, sizeof(name), "socket:[%" PRIu64 "]", (uint64_t)si->ino);
		if (fdtab_name(t, tid, si->fd, name))
			return -ENOMEM;
	}
	if (!sock_add(t, si, at))
		return -ENOMEM;
	/*
	 * A UNIX stream client's peer has no inode until accept() gives it
	 * a socket: the accepted side names the client, so the client learns
	 * its peer then (what sock_diag tells strace from that moment).
	 */
	peer = si->family == AF_UNIX && si->peer_ino ? sock_find(t, si->peer_ino, at) : NULL;
	if (peer && !peer->si.peer_ino) {
		p = peer->si;
		p.peer_ino = si->ino;
		if (!sock_add(t, &p, at))
			return -ENOMEM;
	}
	return 0;
}

int fdtab_set(struct fdtab *t, uint32_t tid, int fd, const char *path)
{
	struct task *k;
	char *c;

	if (!tid) {
		k = &t->tmpl;
		if (!k->files)
			k->files = calloc(1, sizeof(*k->files));
		if (!k->fs)
			k->fs = calloc(1, sizeof(*k->fs));
		if (!k->files || !k->fs)
			return -ENOMEM;
		k->files->refs = k->fs->refs = 1;
	} else {
		k = task_get(t, tid);
	}

	if (!k)
		return -ENOMEM;
	if (fd != -100)
		return fd_set_path(k->files, fd, path, 0);
	if (!path)
		return -EINVAL; /* a working directory always has a path */
	c = strdup(path);
	if (!c)
		return -ENOMEM;
	free(k->fs->cwd);
	k->fs->cwd = c;
	return 0;
}

int fdtab_reset(struct fdtab *t, uint32_t tid)
{
	struct task *k;

	if (!tid)
		return 0; /* nobody's (task_get refuses it) */
	k = task_get(t, tid);
	if (!k)
		return -ENOMEM;
	for (int i = 0; i < k->files->n; i++) {
		fdent_clear(&k->files->fd[i]);
		k->files->fd[i].cloexec = 0;
	}
	return 0;
}

int fdtab_open(struct fdtab *t, uint32_t tid, int fd, const char *path, int cloexec)
{
	struct task *k;

	if (fd == -100 || !tid)
		return fdtab_set(t, tid, fd, path);
	k = task_get(t, tid);
	if (!k)
		return -ENOMEM;
	return fd_set_path(k->files, fd, path, cloexec);
}

void fdtab_thread(struct fdtab *t, uint32_t tgid, uint32_t tid)
{
	if (tgid != tid && !task_find(t, tid) && task_find(t, tgid))
		fdtab_fork(t, tgid, tid, CLONE_FILES | CLONE_FS);
}

int fdtab_name(struct fdtab *t, uint32_t tid, int fd, const char *path)
{
	struct task *k = task_get(t, tid);
	int cloexec, pid, e;

	if (!k || fd < 0)
		return -EINVAL;
	cloexec = fd < k->files->n && k->files->fd[fd].cloexec;
	pid = fd < k->files->n ? k->files->fd[fd].pid : 0;
	e = fd_set_path(k->files, fd, path, cloexec);
	if (!e)
		k->files->fd[fd].pid = pid;
	return e;
}

static struct files *files_copy(const struct files *f)
{
	struct files *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->refs = 1;
	for (int i = 0; i < f->n; i++) {
		if (!f->fd[i].path)
			continue;
		if (fd_set_path(n, i, f->fd[i].path, f->fd[i].cloexec)) {
			files_put(n);
			return NULL;
		}
		n->fd[i].pid = f->fd[i].pid;
	}
	return n;
}

int fdtab_fork(struct fdtab *t, uint32_t parent, uint32_t child,
	       uint64_t clone_flags)
{
	struct task *p, *c;

	/* Already inherited (clone record, then fork record); or a hostile
	 * file's task forking itself, whose tables the puts below would free
	 * before sharing them, or naming tid 0 (a free slot's). */
	if (!parent || !child || child == parent || task_find(t, child))
		return 0;
	p = task_get(t, parent);
	if (!p)
		return -ENOMEM;
	c = task_get(t, child);
	if (!c)
		return -ENOMEM;
	p = task_find(t, parent); /* task_get may have moved the table */
	if (clone_flags & CLONE_FILES) {
		files_put(c->files);
		c->files = p->files;
		p->files->refs++;
	} else {
		struct files *f = files_copy(p->files);

		if (!f)
			return -ENOMEM;
		files_put(c->files);
		c->files = f;
	}
	if (clone_flags & CLONE_FS) {
		fs_put(c->fs);
		c->fs = p->fs;
		p->fs->refs++;
	} else if (p->fs->cwd) {
		free(c->fs->cwd);
		c->fs->cwd = strdup(p->fs->cwd);
	}
	return 0;
}

void fdtab_exit(struct fdtab *t, uint32_t tid)
{
	struct task *k = task_find(t, tid);
	size_t i, j;

	if (!k)
		return;
	files_put(k->files);
	fs_put(k->fs);
	/* Backward-shift deletion keeps the probe chains intact. */
	i = (size_t)(k - t->tasks);
	k->tid = 0;
	t->used--;
	for (j = (i + 1) & (t->cap - 1); t->tasks[j].tid; j = (j + 1) & (t->cap - 1)) {
		struct task e = t->tasks[j];

		t->tasks[j].tid = 0;
		*task_slot(t, e.tid) = e;
	}
}

/* The absolute form of path relative to dirfd (or the cwd) of the
 * call's task, /proc/self made its own; -1 when the base is unknown. */
static int resolve(struct fdtab *t, const struct fdtab_call *c, int dirfd,
		   const char *path, char *out, size_t len)
{
	if (fdpath_resolve(path && path[0] != '/' ? fdtab_path(t, c->tid, dirfd) : NULL, path,
			   out, len))
		return -1;
	fdpath_proc_self(out, len, c->pid, c->tid);
	return 0;
}

static void resolve_links(struct fdtab *t, char *abs, size_t len)
{
	if (t->links)
		fdpath_links(abs, len);
}

static void fd_dup(struct fdtab *t, uint32_t tid, int oldfd, int newfd,
		   int cloexec)
{
	const char *p = fdtab_path(t, tid, oldfd);
	const struct fdent *o = fd_ent(t, tid, oldfd);
	int pid = o ? o->pid : 0;
	struct task *k = task_get(t, tid);
	char *copy;

	if (!k || newfd < 0)
		return;
	copy = p ? strdup(p) : NULL;
	if (!fd_set_path(k->files, newfd, copy, cloexec))
		k->files->fd[newfd].pid = pid;
	free(copy);
}

static void fd_close(struct fdtab *t, uint32_t tid, int fd)
{
	struct task *k = task_find(t, tid);

	if (k && fd >= 0 && fd < k->files->n)
		fdent_clear(&k->files->fd[fd]);
}

static void fd_new(struct fdtab *t, uint32_t tid, int fd, const char *path,
		   int cloexec)
{
	struct task *k = task_get(t, tid);

	if (k && fd >= 0)
		fd_set_path(k->files, fd, path, cloexec);
}

static void on_exec(struct fdtab *t, uint32_t tid)
{
	struct task *k = task_find(t, tid);

	if (!k)
		return;
	for (int i = 0; i < k->files->n; i++)
		if (k->files->fd[i].cloexec)
			fdent_clear(&k->files->fd[i]);
}

/* A pidfd (pidfd_open, CLONE_PIDFD): close-on-exec, -yy "pid:N". */
static void on_pidfd(struct fdtab *t, uint32_t tid, int fd, int pid)
{
	struct task *k;

	fd_new(t, tid, fd, "anon_inode:[pidfd]", 1);
	k = task_find(t, tid);
	if (k && fd >= 0 && fd < k->files->n)
		k->files->fd[fd].pid = pid;
}

/* A reaped process: its pidfds no longer name it (fdinfo's Pid: -1). */
static void on_reaped(struct fdtab *t, int pid)
{
	for (size_t i = 0; i < t->cap; i++) {
		struct files *f = t->tasks[i].tid ? t->tasks[i].files : NULL;

		for (int k = 0; f && k < f->n; k++)
			if (f->fd[k].pid == pid)
				f->fd[k].pid = 0;
	}
}

static void on_open(struct fdtab *t, const struct fdtab_call *c, int dirfd,
		    const char *path, uint64_t flags)
{
	char abs[4096];

	if (resolve(t, c, dirfd, path, abs, sizeof(abs))) {
		fd_new(t, c->tid, (int)c->ret, NULL, !!(flags & O_CLOEXEC));
		return;
	}
	resolve_links(t, abs, sizeof(abs));
	fd_new(t, c->tid, (int)c->ret, abs, !!(flags & O_CLOEXEC));
}

void fdtab_apply(struct fdtab *t, const struct fdtab_call *c)
{
	const uint64_t *a = c->args;
	uint32_t tid = c->tid;
	int r = (int)c->ret;

	if (c->ret < 0)
		return;
	switch (c->nr) {
	case __NR_open:
		on_open(t, c, -100, c->path0, a[1]);
		break;
	case __NR_creat:
		on_open(t, c, -100, c->path0, 0);
		break;
	case __NR_openat:
		on_open(t, c, (int)a[0], c->path1, a[2]);
		break;
	case __NR_openat2:
		on_open(t, c, (int)a[0], c->path1, c->aux);
		break;
	case __NR_open_tree:
		/* OPEN_TREE_CLOEXEC is O_CLOEXEC */
		on_open(t, c, (int)a[0], c->path1, a[2]);
		break;
	case __NR_landlock_create_ruleset:
		/* Not for the version query (flags bit 0), which returns a
		 * number; a ruleset is always close-on-exec. */
		if (!(a[2] & 1))
			fd_new(t, tid, r, "anon_inode:[landlock-ruleset]", 1);
		break;
	case __NR_mq_open: {
		/* A queue's name, as the mqueue file system's root sees it. */
		char q[4096];

		snprintf(q, sizeof(q), "/%s", c->path0 ? c->path0 : "");
		fd_new(t, tid, r, c->path0 ? q : NULL, !!(a[1] & O_CLOEXEC));
		break;
	}
	case __NR_fsmount:
		/* A new detached mount: its root is "/" to d_path. */
		fd_new(t, tid, r, "/", a[1] & 1 /* FSMOUNT_CLOEXEC */);
		break;
	case __NR_close:
		fd_close(t, tid, (int)a[0]);
		break;
	case __NR_close_range:
		for (uint64_t fd = a[0]; fd <= (uint32_t)a[1] && fd < 65536; fd++) {
			struct task *k = task_find(t, tid);

			if (!k || (int)fd >= k->files->n)
				break;
			if (a[2] & 4)
				k->files->fd[fd].cloexec = 1;
			else
				fd_close(t, tid, (int)fd);
		}
		break;
	case __NR_dup:
		fd_dup(t, tid, (int)a[0], r, 0);
		break;
	case __NR_dup2:
		if ((int)a[0] != r)
			fd_dup(t, tid, (int)a[0], r, 0);
		break;
	case __NR_dup3:
		fd_dup(t, tid, (int)a[0], r, !!(a[2] & O_CLOEXEC));
		break;
	case __NR_fcntl:
		if ((int)a[1] == F_DUPFD || (int)a[1] == F_DUPFD_CLOEXEC)
			fd_dup(t, tid, (int)a[0], r, (int)a[1] == F_DUPFD_CLOEXEC);
		else if ((int)a[1] == F_SETFD) {
			struct task *k = task_find(t, tid);

			if (k && (int)a[0] >= 0 && (int)a[0] < k->files->n)
				k->files->fd[a[0]].cloexec = a[2] & FD_CLOEXEC;
		}
		break;
	case __NR_socket:
		fd_new(t, tid, r, "socket:[?]", !!(a[1] & 02000000));
		break;
	case __NR_accept:
	case __NR_accept4:
		fd_new(t, tid, r, "socket:[?]",
		       c->nr == __NR_accept4 && (a[3] & 02000000));
		break;
	case __NR_pipe:
	case __NR_pipe2:
	case __NR_socketpair:
		if (c->have_fds) {
			const char *what = c->nr == __NR_socketpair ? "socket:[?]" : "pipe:[?]";
			int ce = c->nr == __NR_pipe2 ? !!(a[1] & O_CLOEXEC) :
				 c->nr == __NR_socketpair ? !!(a[1] & 02000000) : 0;

			fd_new(t, tid, c->fds[0], what, ce);
			fd_new(t, tid, c->fds[1], what, ce);
		}
		break;
	case __NR_eventfd:
	case __NR_eventfd2:
		fd_new(t, tid, r, "anon_inode:[eventfd]", c->nr == __NR_eventfd2 && (a[1] & O_CLOEXEC));
		break;
	case __NR_epoll_create:
	case __NR_epoll_create1:
		fd_new(t, tid, r, "anon_inode:[eventpoll]", c->nr == __NR_epoll_create1 && (a[0] & O_CLOEXEC));
		break;
	case __NR_timerfd_create:
		fd_new(t, tid, r, "anon_inode:[timerfd]", !!(a[1] & O_CLOEXEC));
		break;
	case __NR_signalfd4:
		if ((int)a[0] == -1)
			fd_new(t, tid, r, "anon_inode:[signalfd]", !!(a[3] & O_CLOEXEC));
		break;
	case __NR_inotify_init:
	case __NR_inotify_init1:
		fd_new(t, tid, r, "anon_inode:inotify", c->nr == __NR_inotify_init1 && (a[0] & O_CLOEXEC));
		break;
	case __NR_pidfd_open:
		on_pidfd(t, tid, r, (int)a[0]);
		break;
	case __NR_seccomp:
		/* A filter's listener (always close-on-exec); the other
		 * operations return 0. */
		if (a[0] == SECCOMP_SET_MODE_FILTER && (a[1] & SECCOMP_FILTER_FLAG_NEW_LISTENER))
			fd_new(t, tid, r, "anon_inode:seccomp notify", 1);
		break;
	case __NR_wait4:
	case __NR_waitid:
		if (c->reaped > 0)
			on_reaped(t, c->reaped);
		break;
	case __NR_memfd_create:
		if (c->path0) {
			char name[300];

			snprintf(name, sizeof(name), "/memfd:%s (deleted)", c->path0);
			fd_new(t, tid, r, name, !!(a[1] & 1));
		}
		break;
	case __NR_chdir:
		if (c->path0) {
			char abs[4096];

			if (!resolve(t, c, -100, c->path0, abs, sizeof(abs))) {
				resolve_links(t, abs, sizeof(abs));
				fdtab_set(t, tid, -100, abs);
			}
		}
		break;
	case __NR_fchdir: {
		const char *p = fdtab_path(t, tid, (int)a[0]);

		if (p && p[0] == '/') {
			char *copy = strdup(p);

			if (copy) {
				fdtab_set(t, tid, -100, copy);
				free(copy);
			}
		}
		break;
	}
	case __NR_execve:
	case __NR_execveat:
		on_exec(t, tid);
		break;
	case __NR_clone:
	case __NR_fork:
	case __NR_vfork:
		if (r > 0)
			fdtab_fork(t, tid, (uint32_t)r,
				   c->nr == __NR_clone ? a[0] :
				   c->nr == __NR_vfork ? CLONE_VM : 0);
		if (r > 0 && c->have_pidfd)
			on_pidfd(t, tid, c->pidfd, r);
		break;
	case __NR_clone3:
		if (r > 0)
			fdtab_fork(t, tid, (uint32_t)r, c->aux);
		if (r > 0 && c->have_pidfd)
			on_pidfd(t, tid, c->pidfd, r);
		break;
	}
}
