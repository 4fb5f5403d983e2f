/* SPDX-License-Identifier: GPL-2.0 */
/* Offline descriptor tables for strace's -y (fdtab.c). */
#ifndef SONDE_STRACE_FDTAB_H
#define SONDE_STRACE_FDTAB_H

#include <stddef.h>
#include <stdint.h>

struct fdtab;

/* What a call did to descriptors, as fdtab_apply needs it. */
struct fdtab_call {
	uint32_t tid;
	uint32_t pid;      /* the task's process (thread group) */
	uint32_t nr;
	int64_t ret;
	uint64_t args[6];
	const char *path0; /* string argument 0 (open, chdir, memfd name) */
	const char *path1; /* string argument 1 (openat) */
	uint64_t aux;      /* openat2 flags, clone3 flags */
	int fds[2];        /* pipe, socketpair results */
	int have_fds;
	int pidfd;         /* clone, clone3 with CLONE_PIDFD */
	int have_pidfd;
	int reaped;        /* wait4, waitid: the child reaped, 0 if none */
};

struct fdtab *fdtab_new(void);
/* Paths opened or chdir'ed to get their symbolic links resolved on this
 * host's file system (the traced program's, when printing live). */
void fdtab_resolve_links(struct fdtab *t, int on);
void fdtab_free(struct fdtab *t);
/* fd -100 (AT_FDCWD) sets the working directory. */
int fdtab_set(struct fdtab *t, uint32_t tid, int fd, const char *path);
/* Forgets every descriptor of tid (its table is about to be listed). */
int fdtab_reset(struct fdtab *t, uint32_t tid);
/* An open descriptor of tid; fd -100 sets the working directory. */
int fdtab_open(struct fdtab *t, uint32_t tid, int fd, const char *path, int cloexec);
/* A thread first seen after recording began shares its process's table. */
void fdtab_thread(struct fdtab *t, uint32_t tgid, uint32_t tid);
/* -yy: what the kernel said socket si->ino (fd si->fd of tid) is named
 * and bound to, read at time at. */
struct sonde_sockinfo;
int fdtab_sock(struct fdtab *t, uint32_t tid, const struct sonde_sockinfo *si, uint64_t at);
/* -yy name of fd in buf as strace shows it at time when (its sock_diag
 * cache replayed, sdcache.h), NULL when it is not a socket the kernel
 * described. */
const char *fdtab_detail(struct fdtab *t, uint32_t tid, int fd, uint64_t when, char *buf,
			 size_t len);
/* The kernel's facts of fd's socket as strace sees them at time when
 * (those it cached, else the facts then), NULL when fd is not a socket
 * the kernel described. */
const struct sonde_sockinfo *fdtab_sockinfo(struct fdtab *t, uint32_t tid, int fd,
					    uint64_t when);
/* Names an open descriptor (kernel facts), keeping its close-on-exec. */
int fdtab_name(struct fdtab *t, uint32_t tid, int fd, const char *path);
const char *fdtab_path(struct fdtab *t, uint32_t tid, int fd);
int fdtab_fork(struct fdtab *t, uint32_t parent, uint32_t child,
	       uint64_t clone_flags);
void fdtab_exit(struct fdtab *t, uint32_t tid);
/* Applies a successful call's effect on descriptors. */
void fdtab_apply(struct fdtab *t, const struct fdtab_call *c);

#endif
