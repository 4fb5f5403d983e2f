/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Descriptors received over a UNIX socket (SCM_RIGHTS), for -y: the
 * kernel installs them while recvmsg/recvmmsg copies the control data
 * out, and writes their numbers into the caller's cmsg buffer; nothing
 * else in the trace says what they are. At sys_exit of a call whose
 * control data came back non-empty (cap_msghdr, asked by the capture
 * plan, calls cap_scm_rights with the msg_controllen the kernel just
 * stored), each SCM_RIGHTS cmsg is walked and, per descriptor:
 *
 *   - a struct sonde_fdinfo record (bpf/fdinfo.h), addr = the user
 *     address of the descriptor's int in the cmsg (unique per fd: the
 *     reader groups payload records by address, phase and argument);
 *   - for a file with a path (not a socket, pipe, anon inode, pidfd): a
 *     SONDE_PLR_PHASE_FDPATH record at the same addr, the path's
 *     components leaf first, each NUL-terminated, up to the task's root,
 *     as d_path() walks them for /proc/PID/fd (the reader reverses
 *     them); bpf_d_path, which would do it, is not allowed in
 *     tracepoint programs;
 *   - for a socket: its struct sonde_sockinfo (-yy).
 *
 * A recvmsg without control data costs one compare (cap_msghdr reads the
 * msghdr anyway); every other syscall nothing.
 *
 * Call frames, counted by the verifier (8 at most): sys_exit, cap_item,
 * cap_msghdr, cap_scm_rights, scm_fd_one (bpf_loop callback),
 * cap_recvfd, fdpath_step (bpf_loop callback): 7. fdpath_emit is
 * inlined for that reason, and nothing here may add a frame.
 */
#ifndef SONDE_BPF_SCM_H
#define SONDE_BPF_SCM_H

#define SCM_CMSGS 8	     /* cmsgs walked per message */
#define SCM_MAX_FD_ 253	     /* <net/scm.h> SCM_MAX_FD */
#define FDPATH_DEPTH 64	     /* path components walked */
#define FDPATH_NAME 256	     /* longest component (NAME_MAX + 1) */
#define FDPATH_MAX 4096	     /* bytes of components kept (PATH_MAX) */

struct fdpath_walk {
	__u64 d, mnt, mnt_root; /* kernel pointers, read with probe reads */
	__u64 root_d, root_mnt; /* the task's fs->root */
	__u8 *buf;
	__u32 off;
	__u32 cut;    /* a component could not be read, or too long a path */
	__u32 done;   /* the walk reached the root (else FDPATH_DEPTH ran out) */
	__u32 pseudo; /* a pseudo file's dentry (memfd) */
};

/*
 * One step towards the root: the current dentry's name, then its parent;
 * at the root of a mount, over to where it is mounted. A dentry is its
 * own parent at a file system's root; a mount its own parent at the
 * namespace's root.
 */
static long fdpath_step(__u32 i, void *ctx)
{
	struct fdpath_walk *w = ctx;
	struct dentry *d = (struct dentry *)w->d;
	struct mount *m = (struct mount *)w->mnt, *pm;
	const unsigned char *name;
	__u64 parent;
	long n;

	if (w->d == w->root_d && w->mnt == w->root_mnt) {
		w->done = 1;
		return 1;
	}
	if (w->d == w->mnt_root) {
		pm = BPF_CORE_READ(m, mnt_parent);
		if (!pm || pm == m) {
			w->done = 1; /* the root of the namespace (or of a pseudo mount) */
			return 1;
		}
		w->d = (__u64)BPF_CORE_READ(m, mnt_mountpoint);
		w->mnt = (__u64)pm;
		w->mnt_root = (__u64)BPF_CORE_READ(pm, mnt.mnt_root);
		return 0;
	}
	parent = (__u64)BPF_CORE_READ(d, d_parent);
	if (parent == w->d && w->off) {
		w->done = 1; /* a disconnected tree: d_path's "escaped" case */
		return 1;
	}
	/* The offset is compared, then masked where it is used: the mask,
	 * on the very value that forms the destination, is what bounds
	 * the write for the verifier (off is reloaded from ctx memory). */
	if (w->off > FDPATH_MAX - FDPATH_NAME) {
		w->cut = 1;
		return 1;
	}
	name = BPF_CORE_READ(d, d_name.name);
	n = bpf_probe_read_kernel_str(w->buf + (w->off & (FDPATH_MAX - 1)), FDPATH_NAME, name);
	if (n <= 0) {
		w->cut = 1;
		return 1;
	}
	w->off += n;
	/*
	 * A file's own dentry that is its own parent, not a mount's root: a
	 * pseudo file (memfd, shared memory), which d_path names with its
	 * d_dname, simple_dname(): "/NAME (deleted)".
	 */
	if (parent == w->d) {
		w->pseudo = w->done = 1;
		return 1;
	}
	w->d = parent;
	return 0;
}

/* A walk from f's dentry up to t's root, writing into buf. */
static __always_inline void fdpath_walk_init(struct fdpath_walk *w, struct task_struct *t,
					     struct file *f, __u8 *buf)
{
	struct mount *m = container_of(BPF_CORE_READ(f, f_path.mnt), struct mount, mnt);

	w->d = (__u64)BPF_CORE_READ(f, f_path.dentry);
	w->mnt = (__u64)m;
	w->mnt_root = (__u64)BPF_CORE_READ(m, mnt.mnt_root);
	w->root_d = (__u64)BPF_CORE_READ(t, fs, root.dentry);
	w->root_mnt = (__u64)container_of(BPF_CORE_READ(t, fs, root.mnt), struct mount, mnt);
	w->buf = buf;
}

/*
 * The path of f's file as components leaf first, into the per-CPU
 * scratch record (cap_buf), emitted as a SONDE_PLR_PHASE_FDPATH record at
 * addr. Nothing for a file on an internal mount (sockets, pipes: their
 * name is the fdinfo's) or a path cut short.
 */
static __always_inline void fdpath_emit(struct cap_call *c, struct task_struct *t,
					struct file *f, __u64 addr)
{
	struct fdpath_walk w = {};
	struct cap_scratch *b;
	struct dentry *d;
	struct emit em;
	__u32 key, size;

	if (emit_begin(&em, c->ts))
		return;
	key = em.cpu;
	b = bpf_map_lookup_elem(&cap_buf, &key);
	if (!b)
		return;
	d = BPF_CORE_READ(f, f_path.dentry);
	fdpath_walk_init(&w, t, f, b->data);
	bpf_loop(FDPATH_DEPTH, fdpath_step, &w, 0);
	if (w.cut || !w.done || w.off > FDPATH_MAX) /* no components: the root itself */
		return;
	facts_hdr(&b->p, c, 1, SONDE_PLR_PHASE_FDPATH, w.off, em.cpu);
	b->p.addr = addr;
	/* d_unlinked(): unhashed and not a root; /proc/PID/fd adds
	 * " (deleted)" (memfds, files removed while open). */
	b->p.returned = w.pseudo || (!BPF_CORE_READ(d, d_hash.pprev) &&
				     BPF_CORE_READ(d, d_parent) != d);
	size = (sizeof(b->p) + w.off + 7) & ~7u;
	b->p.hdr.size = size;
	/* The padding must not show an older path's bytes. */
	for (__u32 k = w.off; k < ((w.off + 7) & ~7u) && k < FDPATH_MAX; k++)
		b->data[k & (FDPATH_MAX - 1)] = 0;
	if (bpf_ringbuf_output(em.ring, b, size <= sizeof(*b) ? size : sizeof(*b),
			       BPF_RB_NO_WAKEUP))
		cap_lost(&em, c->ts);
}

struct recvfd_rec {
	struct sonde_ev_payload p;
	struct sonde_fdinfo fi;
};

struct recvsock_rec {
	struct sonde_ev_payload p;
	struct sonde_sockinfo si;
};

/* What received descriptor fd is; its int sits at addr in the cmsg. */
__noinline int cap_recvfd(struct cap_call *c, __u64 addr, int fd)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct recvfd_rec *r;
	struct recvsock_rec *s;
	struct file *f;
	struct emit em;
	__u32 magic;

	if (!c || emit_begin(&em, c->ts))
		return 0;
	r = emit_reserve(&em, sizeof(*r), c->ts);
	if (!r)
		return 0;
	if (!fdinfo_read(t, fd, &r->fi)) {
		bpf_ringbuf_discard(r, BPF_RB_NO_WAKEUP);
		return 0;
	}
	facts_hdr(&r->p, c, 1, SONDE_PLR_PHASE_FDINFO, sizeof(r->fi), em.cpu);
	r->p.addr = addr;
	magic = r->fi.magic;
	emit_submit(&em, r);
	if (magic == SOCKFS_MAGIC_) {
		if (emit_begin(&em, c->ts))
			return 0;
		s = emit_reserve(&em, sizeof(*s), c->ts);
		if (!s)
			return 0;
		if (!sockinfo_read(t, fd, &s->si)) {
			bpf_ringbuf_discard(s, BPF_RB_NO_WAKEUP);
			return 0;
		}
		facts_hdr(&s->p, c, 1, SONDE_PLR_PHASE_SOCKINFO, sizeof(s->si), em.cpu);
		s->p.addr = addr;
		emit_submit(&em, s);
		return 0;
	}
	/* Pipes, anon inodes and pidfds are named by their fdinfo. */
	if (magic == 0x50495045 || magic == 0x09041934 || magic == 0x50494446)
		return 0;
	f = fd_file(t, fd);
	if (f)
		fdpath_emit(c, t, f, addr);
	return 0;
}

struct scm_fds {
	struct cap_call *c;
	__u64 at;
	__u32 n;
};

static long scm_fd_one(__u32 i, void *ctx)
{
	struct scm_fds *s = ctx;
	int fd;

	if (i >= s->n || bpf_probe_read_user(&fd, sizeof(fd), (void *)(s->at + i * 4)))
		return 1;
	cap_recvfd(s->c, s->at + i * 4, fd);
	return 0;
}

/*
 * The control data the kernel wrote (clen bytes at ctrl, resident since
 * it was written): struct cmsghdr { u64 len; int level, type; } then the
 * data, each cmsg aligned to 8.
 */
__noinline int cap_scm_rights(struct cap_call *c, __u64 ctrl, __u64 clen)
{
	struct { __u64 len; __s32 level, type; } h;
	struct scm_fds s = { .c = c };
	__u64 off = 0;

	if (!c)
		return 0;
	for (int k = 0; k < SCM_CMSGS; k++) {
		if (off + sizeof(h) > clen || bpf_probe_read_user(&h, sizeof(h), (void *)(ctrl + off)))
			break;
		if (h.len < sizeof(h) || h.len > clen - off)
			break;
		if (h.level == 1 && h.type == 1) { /* SOL_SOCKET, SCM_RIGHTS */
			s.at = ctrl + off + sizeof(h);
			s.n = (h.len - sizeof(h)) / 4;
			bpf_loop(SCM_MAX_FD_, scm_fd_one, &s, 0);
		}
		off += (h.len + 7) & ~7ULL;
	}
	return 0;
}

#endif /* SONDE_BPF_SCM_H */
