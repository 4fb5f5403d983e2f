/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Descriptor facts for -y (include/sonde/payload.h, SONDE_CAP_FDINFO):
 * at sys_exit of a call that created descriptors whose name is not a path
 * (socket, pipe2, eventfd2, epoll_create1...), what each of them is, read
 * from the task's file table the way /proc/PID/fd names it:
 *
 *   task->files->fdt->fd[fd] -> struct file -> f_inode: i_ino, i_mode,
 *                                              i_sb->s_magic
 *                            -> f_path.dentry->d_name ("[eventfd]")
 *
 * Only the syscalls whose capture plan holds a SONDE_CAP_FDINFO item get
 * here (src/decode/strace/capture_plan.c), so the syscall hot path is
 * untouched. Included by capture.bpf.h, whose cap_item dispatches to it.
 *
 * The table is read without the RCU lock: BPF programs run inside an RCU
 * read-side section already, and every read goes through
 * bpf_probe_read_kernel (BPF_CORE_READ), which cannot fault. A descriptor
 * another thread closed in between reads as missing, and the fd is then
 * left out of the record.
 */
#ifndef SONDE_BPF_FDINFO_H
#define SONDE_BPF_FDINFO_H

struct fdinfo_rec {
	struct sonde_ev_payload p;
	struct sonde_fdinfo fi[2];
};

/* The file behind fd in the current task's table, or NULL. */
static __always_inline struct file *fd_file(struct task_struct *t, int fd)
{
	struct file **fdv;
	struct file *f = NULL;
	unsigned int max;

	if (fd < 0)
		return NULL;
	max = BPF_CORE_READ(t, files, fdt, max_fds);
	fdv = BPF_CORE_READ(t, files, fdt, fd);
	if ((unsigned int)fd >= max || !fdv)
		return NULL;
	bpf_probe_read_kernel(&f, sizeof(f), &fdv[fd]);
	return f;
}

/* What fd of the current task is; 0 when it has no file. */
static __always_inline int fdinfo_read(struct task_struct *t, int fd, struct sonde_fdinfo *fi)
{
	struct file *f = fd_file(t, fd);
	const unsigned char *name;

	if (!f)
		return 0;
	fi->fd = fd;
	fi->magic = BPF_CORE_READ(f, f_inode, i_sb, s_magic);
	fi->ino = BPF_CORE_READ(f, f_inode, i_ino);
	fi->mode = BPF_CORE_READ(f, f_inode, i_mode);
	fi->_pad = 0;
	name = BPF_CORE_READ(f, f_path.dentry, d_name.name);
	if (!name || bpf_probe_read_kernel_str(fi->name, sizeof(fi->name), name) < 0)
		fi->name[0] = 0;
	return 1;
}

/* The payload header of a record of kernel facts (len bytes of them). */
static __always_inline void facts_hdr(struct sonde_ev_payload *p, struct cap_call *c, __u32 arg,
				      __u32 phase, __u32 len, __u32 cpu)
{
	payload_facts_hdr(p, c->ts, c->tgid, c->tid, c->nr, arg, phase, len, cpu);
}

/*
 * The descriptors of a successful call: its return value, or (pipe,
 * pipe2, socketpair) the int[2] the kernel just wrote at arg, resident
 * since it was written. One small record, never shed: like the syscall
 * record it names, it is what the decoder needs to print the call.
 */
__noinline int cap_fdinfo(struct cap_call *c, __u32 arg, __u32 size)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct fdinfo_rec *r;
	struct emit em;
	int fds[2] = { -1, -1 };
	__u32 n = 0;

	if (!c || !c->phase || c->ret < 0)
		return 0;
	if (size == 2) {
		if (bpf_probe_read_user(fds, sizeof(fds), (void *)cap_arg(c, arg < 6 ? arg : 0)))
			return 0;
	} else {
		fds[0] = (int)c->ret;
	}
	if (emit_begin(&em, c->ts))
		return 0;
	r = emit_reserve(&em, sizeof(*r), c->ts);
	if (!r)
		return 0;
	if (fdinfo_read(t, fds[0], &r->fi[n]))
		n++;
	if (fdinfo_read(t, fds[1], &r->fi[n & 1]))
		n++;
	if (!n) {
		bpf_ringbuf_discard(r, BPF_RB_NO_WAKEUP);
		return 0;
	}
	facts_hdr(&r->p, c, arg, SONDE_PLR_PHASE_FDINFO, n * sizeof(r->fi[0]), em.cpu);
	if (n == 1)
		__builtin_memset(&r->fi[1], 0, sizeof(r->fi[1]));
	emit_submit(&em, r);
	return 0;
}

/*
 * -yy: a socket's protocol name, addresses and peer, from its struct sock
 * (what sock_diag reports to strace):
 *
 *   file->private_data = struct socket -> sk: skc_family, skc_prot->name,
 *     inet: skc_rcv_saddr/skc_num, skc_daddr/skc_dport (v6: skc_v6_*)
 *     unix: unix_sock.addr (bound name), .peer -> its socket's inode
 *     netlink: netlink_sock.portid
 */
#define SOCKFS_MAGIC_ 0x534F434B

static __always_inline int sockinfo_read(struct task_struct *t, int fd, struct sonde_sockinfo *si)
{
	struct file *f = fd_file(t, fd);
	struct socket *sock;
	struct sock *sk, *peer;
	struct socket_alloc *psock;
	struct unix_address *ua;
	const char *pname;
	int len;

	if (!f || BPF_CORE_READ(f, f_inode, i_sb, s_magic) != SOCKFS_MAGIC_)
		return 0;
	sock = BPF_CORE_READ(f, private_data);
	sk = BPF_CORE_READ(sock, sk);
	if (!sk)
		return 0;
	__builtin_memset(si, 0, sizeof(*si));
	si->fd = fd;
	si->ino = BPF_CORE_READ(f, f_inode, i_ino);
	si->family = BPF_CORE_READ(sk, __sk_common.skc_family);
	si->type = BPF_CORE_READ(sk, sk_type);
	si->protocol = BPF_CORE_READ(sk, sk_protocol);
	pname = BPF_CORE_READ(sk, __sk_common.skc_prot, name);
	bpf_probe_read_kernel_str(si->proto, sizeof(si->proto), pname);
	switch (si->family) {
	case 2: /* AF_INET */
		bpf_probe_read_kernel(si->laddr, 4, &sk->__sk_common.skc_rcv_saddr);
		bpf_probe_read_kernel(si->raddr, 4, &sk->__sk_common.skc_daddr);
		si->lport = BPF_CORE_READ(sk, __sk_common.skc_num);
		si->rport = __builtin_bswap16(BPF_CORE_READ(sk, __sk_common.skc_dport));
		break;
	case 10: /* AF_INET6 */
		bpf_probe_read_kernel(si->laddr, 16, &sk->__sk_common.skc_v6_rcv_saddr);
		bpf_probe_read_kernel(si->raddr, 16, &sk->__sk_common.skc_v6_daddr);
		si->lport = BPF_CORE_READ(sk, __sk_common.skc_num);
		si->rport = __builtin_bswap16(BPF_CORE_READ(sk, __sk_common.skc_dport));
		break;
	case 1: /* AF_UNIX */
		peer = BPF_CORE_READ((struct unix_sock *)sk, peer);
		/* A socket's inode follows it in struct socket_alloc. */
		psock = peer ? (struct socket_alloc *)BPF_CORE_READ(peer, sk_socket) : NULL;
		if (psock)
			si->peer_ino = BPF_CORE_READ(psock, vfs_inode.i_ino);
		ua = BPF_CORE_READ((struct unix_sock *)sk, addr);
		if (!ua)
			break;
		len = BPF_CORE_READ(ua, len) - 2; /* sun_family */
		if (len <= 0)
			break;
		si->path_len = len < SONDE_SOCK_PATH ? len : SONDE_SOCK_PATH;
		bpf_probe_read_kernel(si->path, sizeof(si->path), &ua->name[0].sun_path);
		break;
	case 16: /* AF_NETLINK */
		si->portid = BPF_CORE_READ((struct netlink_sock *)sk, portid);
		break;
	}
	return 1;
}

struct sockinfo_rec {
	struct sonde_ev_payload p;
	struct sonde_sockinfo si[2];
};

/* The sockets of a call, also a failed one (a non-blocking connect has
 * its peer while it returns EINPROGRESS). */
__noinline int cap_sockinfo(struct cap_call *c, __u32 arg, __u32 size)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct sockinfo_rec *r;
	struct emit em;
	int fds[2] = { -1, -1 };
	__u32 n = 0;

	if (!c || !c->phase)
		return 0;
	if (size == 2) {
		if (c->ret < 0 ||
		    bpf_probe_read_user(fds, sizeof(fds), (void *)cap_arg(c, arg < 6 ? arg : 0)))
			return 0;
	} else if (size == 1) {
		fds[0] = (int)cap_arg(c, arg < 6 ? arg : 0);
	} else {
		if (c->ret < 0)
			return 0;
		fds[0] = (int)c->ret;
	}
	if (emit_begin(&em, c->ts))
		return 0;
	r = emit_reserve(&em, sizeof(*r), c->ts);
	if (!r)
		return 0;
	if (sockinfo_read(t, fds[0], &r->si[0]))
		n++;
	if (sockinfo_read(t, fds[1], &r->si[n & 1]))
		n++;
	if (!n) {
		bpf_ringbuf_discard(r, BPF_RB_NO_WAKEUP);
		return 0;
	}
	facts_hdr(&r->p, c, arg, SONDE_PLR_PHASE_SOCKINFO, n * sizeof(r->si[0]), em.cpu);
	if (n == 1)
		__builtin_memset(&r->si[1], 0, sizeof(r->si[1]));
	emit_submit(&em, r);
	return 0;
}

/*
 * A socket bound by its first sendto, sendmsg or sendmmsg, the kernel's
 * autobind picking its address: a UDP socket's port (strace -yy then
 * shows UDP:[0.0.0.0:PORT]), a netlink socket's port id (strace learns
 * its protocol only then: NETLINK_AUDIT's message types). Those calls are
 * frequent and almost never bind: a socket's facts are recorded only when
 * its port differs from the last one recorded here, so such a socket
 * costs one record at its first send, and every other socket the reads
 * that tell it is neither. Keyed by the socket's inode, not its struct
 * sock, whose address is reused once it is freed; an LRU map forgets
 * closed sockets by itself.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);   /* socket inode */
	__type(value, __u32); /* port or port id last recorded */
} send_ports SEC(".maps");

__noinline int cap_send_bound(struct cap_call *c, __u32 arg)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct file *f;
	struct socket *sock;
	struct sock *sk;
	__u32 port, *last;
	__u16 family;
	__u64 ino;

	if (!c)
		return 0;
	f = fd_file(t, (int)cap_arg(c, arg < 6 ? arg : 0));
	if (!f || BPF_CORE_READ(f, f_inode, i_sb, s_magic) != SOCKFS_MAGIC_)
		return 0;
	sock = BPF_CORE_READ(f, private_data);
	sk = BPF_CORE_READ(sock, sk);
	if (!sk)
		return 0;
	family = BPF_CORE_READ(sk, __sk_common.skc_family);
	if (family == 16) /* AF_NETLINK */
		port = BPF_CORE_READ((struct netlink_sock *)sk, portid);
	else if ((family == 2 || family == 10) &&
		 BPF_CORE_READ(sk, sk_protocol) == 17) /* IPPROTO_UDP */
		port = BPF_CORE_READ(sk, __sk_common.skc_num);
	else
		return 0;
	if (!port)
		return 0;
	ino = BPF_CORE_READ(f, f_inode, i_ino);
	last = bpf_map_lookup_elem(&send_ports, &ino);
	if (last && *last == port)
		return 0;
	bpf_map_update_elem(&send_ports, &ino, &port, BPF_ANY);
	return cap_sockinfo(c, arg, 1);
}

#endif /* SONDE_BPF_FDINFO_H */
