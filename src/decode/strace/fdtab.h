/* SPDX-License-Identifier: GPL-2.0 */
/* Offline descriptor tables for strace's -y (fdtab.c). */
#ifndef SONDE_STRACE_FDTAB_H
#define SONDE_STRACE_FDTAB_H

#include <stdint.h>

struct fdtab;

/* What a call did to descriptors, as fdtab_apply needs it. */
struct fdtab_call {
	uint32_t tid;
	uint32_t nr;
	int64_t ret;
	uint64_t args[6];
	const char *path0; /* string argument 0 (open, chdir, memfd name) */
	const char *path1; /* string argument 1 (openat) */
	uint64_t aux;      /* openat2 flags, clone3 flags */
	int fds[2];        /* pipe, socketpair results */
	int have_fds;
};

struct fdtab *fdtab_new(void);
void fdtab_free(struct fdtab *t);
/* fd -100 (AT_FDCWD) sets the working directory. */
int fdtab_set(struct fdtab *t, uint32_t tid, int fd, const char *path);
const char *fdtab_path(struct fdtab *t, uint32_t tid, int fd);
int fdtab_fork(struct fdtab *t, uint32_t parent, uint32_t child,
	       uint64_t clone_flags);
void fdtab_exit(struct fdtab *t, uint32_t tid);
/* Paths opened from now on have their symbolic links resolved with
 * realpath(3), when the file still exists: only right for a live trace
 * on this machine (sonde strace), as strace reads /proc/PID/fd. */
void fdtab_resolve_links(struct fdtab *t, int on);
/* Applies a successful call's effect on descriptors. */
void fdtab_apply(struct fdtab *t, const struct fdtab_call *c);
struct sonde_call;
/* The same from a call and its captured memory (fdtrack.c). */
void fdtab_track(struct fdtab *t, const struct sonde_call *c);

#endif
