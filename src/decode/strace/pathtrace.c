// SPDX-License-Identifier: GPL-2.0
/*
 * strace's -P PATH: only the calls that access one of the paths, by a
 * path argument (compared byte for byte with the path as given and with
 * its realpath, include/sonde/strace.h) or by a descriptor argument whose
 * name is one of them. strace asks /proc/PID/fd at the call's entry; sonde
 * asks the offline descriptor tables of -y (fdtab.c) before the call is
 * applied to them, so close(3) still matches the file 3 was.
 *
 * Which arguments are looked at follows strace's pathtrace: a list of
 * calls with their own layout, then by class: a %file call's first
 * argument is a path, a %desc or %network call's first argument a
 * descriptor; calls of neither class never match.
 */
#include <poll.h>
#include <string.h>
#include <sys/syscall.h>

#include "decode/strace/strace_int.h"
#include "decode/strace/pathtrace.h"

struct pt {
	const struct sonde_strace_paths *ps;
	struct fdtab *fds;
	const struct sonde_call *c;
	uint32_t tid;
};

static int pt_has(const struct pt *m, const char *s, size_t n)
{
	for (unsigned int i = 0; i < m->ps->n; i++)
		if (strlen(m->ps->p[i].path) == n && !memcmp(m->ps->p[i].path, s, n))
			return 1;
	return 0;
}

/* The path argument at addr, whole (its NUL was captured), in the set. */
static int pt_upath(const struct pt *m, uint64_t addr)
{
	const struct sonde_payload *p = NULL;
	const char *s;
	size_t n;

	if (!addr)
		return 0;
	for (int phase = SONDE_PL_ENTRY; !p && phase <= SONDE_PL_EXIT; phase++) {
		p = sonde_call_mem(m->c, phase, addr, 0);
		if (p && (p->flags & SONDE_PLF_UNREADABLE))
			p = NULL;
	}
	if (!p)
		return 0;
	s = (const char *)p->data + (addr - p->addr);
	n = p->captured - (addr - p->addr);
	if (memchr(s, 0, n))
		n = strlen(s);
	else if (!(p->flags & SONDE_PLF_NUL))
		return 0; /* cut by the snaplen: strace compares whole paths */
	return n && pt_has(m, s, n);
}

/* Descriptor fd's name, as -y shows it, in the set. */
static int pt_fd(const struct pt *m, uint64_t arg)
{
	int fd = (int)arg;
	const char *path;

	if (fd < 0)
		return 0;
	path = fdtab_path(m->fds, m->tid, fd);
	return path && pt_has(m, path, strlen(path));
}

/* select, pselect6: the descriptors of the three fd_sets at entry. */
static int pt_fdsets(const struct pt *m)
{
	const __u64 *a = m->c->sc->args;
	int nfds = (int)a[0];

	if (nfds <= 0)
		return 0;
	if (nfds > 1024 * 1024)
		nfds = 1024 * 1024;
	for (int i = 1; i <= 3; i++) {
		uint64_t size = (((uint64_t)nfds + 63) / 64) * 8;
		const struct sonde_payload *p = a[i] ? sonde_call_mem(m->c, SONDE_PL_ENTRY, a[i],
								       size) : NULL;
		const uint8_t *bits;

		if (!p || (p->flags & SONDE_PLF_UNREADABLE))
			continue;
		bits = p->data + (a[i] - p->addr);
		for (int fd = 0; fd < nfds; fd++)
			if (((bits[fd / 8] >> (fd % 8)) & 1) && pt_fd(m, (uint64_t)fd))
				return 1;
	}
	return 0;
}

/* poll, ppoll: the pollfd array at entry, as far as it was captured. */
static int pt_pollfds(const struct pt *m)
{
	const __u64 *a = m->c->sc->args;
	uint32_t nfds = (uint32_t)a[1];
	const struct sonde_payload *p = a[0] ? sonde_call_mem(m->c, SONDE_PL_ENTRY, a[0], 1) : NULL;
	uint64_t have;

	if (!p || (p->flags & SONDE_PLF_UNREADABLE))
		return 0;
	have = (p->captured - (a[0] - p->addr)) / sizeof(struct pollfd);
	for (uint64_t i = 0; i < nfds && i < have; i++) {
		struct pollfd pf;

		memcpy(&pf, p->data + (a[0] - p->addr) + i * sizeof(pf), sizeof(pf));
		if (pt_fd(m, (uint64_t)(int64_t)pf.fd))
			return 1;
	}
	return 0;
}

/* Calls whose descriptor and path arguments are not (only) argument 0.
 * -1: fall back on the class. */
static int pt_special(const struct pt *m)
{
	const __u64 *a = m->c->sc->args;

	switch (m->c->sc->nr) {
	case __NR_dup2:
	case __NR_dup3:
	case __NR_kexec_file_load:
	case __NR_sendfile:
	case __NR_tee:
		return pt_fd(m, a[0]) || pt_fd(m, a[1]);
	case __NR_execveat:
	case __NR_faccessat:
	case __NR_faccessat2:
	case __NR_fchmodat:
	case __NR_fchownat:
	case __NR_fspick:
	case __NR_newfstatat:
	case __NR_futimesat:
	case __NR_inotify_add_watch:
	case __NR_mkdirat:
	case __NR_mknodat:
	case __NR_mount_setattr:
	case __NR_name_to_handle_at:
	case __NR_open_tree:
	case __NR_openat:
	case __NR_openat2:
	case __NR_readlinkat:
	case __NR_statx:
	case __NR_unlinkat:
	case __NR_utimensat:
		return pt_fd(m, a[0]) || pt_upath(m, a[1]);
	case __NR_link:
	case __NR_mount:
	case __NR_pivot_root:
		return pt_upath(m, a[0]) || pt_upath(m, a[1]);
	case __NR_quotactl:
	case __NR_symlink:
		return pt_upath(m, a[1]);
	case __NR_linkat:
	case __NR_move_mount:
	case __NR_renameat:
	case __NR_renameat2:
		return pt_fd(m, a[0]) || pt_fd(m, a[2]) || pt_upath(m, a[1]) ||
		       pt_upath(m, a[3]);
	case __NR_mmap:
		return pt_fd(m, a[4]);
	case __NR_symlinkat:
		return pt_fd(m, a[1]) || pt_upath(m, a[2]);
	case __NR_copy_file_range:
	case __NR_splice:
		return pt_fd(m, a[0]) || pt_fd(m, a[2]);
	case __NR_epoll_ctl:
		return pt_fd(m, a[2]);
	case __NR_fanotify_mark: /* the 64-bit mask is one argument here */
		return pt_fd(m, a[3]) || pt_upath(m, a[4]);
	case __NR_select:
	case __NR_pselect6:
		return pt_fdsets(m);
	case __NR_poll:
	case __NR_ppoll:
		return pt_pollfds(m);
	case __NR_fsconfig:
		switch ((uint32_t)a[1]) {
		case 3: /* FSCONFIG_SET_PATH */
		case 4: /* FSCONFIG_SET_PATH_EMPTY */
			return pt_fd(m, a[4]) || pt_upath(m, a[3]);
		case 5: /* FSCONFIG_SET_FD */
			return pt_fd(m, a[4]);
		}
		return 0;
	/* Of the classes, without a descriptor or path to look at. */
	case __NR_bpf:
	case __NR_epoll_create:
	case __NR_epoll_create1:
	case __NR_eventfd:
	case __NR_eventfd2:
	case __NR_fanotify_init:
	case __NR_fsopen:
	case __NR_inotify_init:
	case __NR_inotify_init1:
	case __NR_io_uring_setup:
	case __NR_landlock_create_ruleset:
	case __NR_memfd_create:
	case __NR_memfd_secret:
	case __NR_mq_open:
	case __NR_perf_event_open:
	case __NR_pidfd_open:
	case __NR_pipe:
	case __NR_pipe2:
	case __NR_socket:
	case __NR_socketpair:
	case __NR_timerfd_create:
	case __NR_userfaultfd:
		return 0;
	}
	return -1;
}

int pathtrace_match(const struct sonde_strace_paths *ps, struct fdtab *fds,
		    const struct sonde_call *c)
{
	struct pt m = { ps, fds, c, c->sc->hdr.tid };
	unsigned int cls = sonde_syscall_classes(c->sc->nr);
	int r;

	if (!(cls & (SONDE_SCC_FILE | SONDE_SCC_DESC | SONDE_SCC_NETWORK)))
		return 0;
	r = pt_special(&m);
	if (r >= 0)
		return r;
	if (cls & SONDE_SCC_FILE)
		return pt_upath(&m, c->sc->args[0]);
	return pt_fd(&m, c->sc->args[0]);
}
