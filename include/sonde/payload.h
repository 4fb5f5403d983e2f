/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Payloads: user memory captured for syscall arguments (paths, buffers,
 * structs), docs/design/payloads.md. Shared by bpf/capture.bpf.h, the
 * recorder (src/record/payload.c) and the decoders (src/decode/strace/).
 * Compiled by clang -target bpf and by the host compiler: includes
 * nothing; include events.h (and its __uN types) first.
 *
 * A payload record follows the syscall record's identity: same tid, and
 * hdr.ts = the syscall's entry time, so a reader groups the payloads of a
 * call with it. Bulky payloads are cut into chunks of at most
 * SONDE_PL_CHUNK bytes (hdr.size is 16 bits); `offset` says where a
 * chunk's bytes sit in the whole.
 *
 *   0      24     32        36       40       44      48  50  51  52  53   56     60    64
 *   +------+------+---------+--------+--------+-------+---+---+---+---+----+------+-----+
 *   | hdr  | addr |requested|returned|captured|offset |nr |arg|ph |fl |pad |chunk | pad |
 *   +------+------+---------+--------+--------+-------+---+---+---+---+----+------+-----+
 *   then `chunk` bytes of data, padded to 8 (captured counts the whole
 *   payload's bytes across its chunks).
 */
#ifndef SONDE_PAYLOAD_H
#define SONDE_PAYLOAD_H

/* Largest data part of one payload record. */
#define SONDE_PL_CHUNK 16384
/* Most chunks per payload: SONDE_PL_CHUNK * this = the largest snaplen. */
#define SONDE_PL_MAX_CHUNKS 128
#define SONDE_SNAPLEN_MAX (SONDE_PL_CHUNK * SONDE_PL_MAX_CHUNKS) /* 2 MiB */
/* Default per-call cap of sonde strace and record --payloads. */
#define SONDE_SNAPLEN_DEFAULT 262144
/* Longest string (path, argv element) read. */
#define SONDE_PL_STR_MAX 4096
/*
 * argv/envp (SONDE_CAP_STRV): pointers and strings captured per array.
 * A longer array is cut, explicitly: its payload's requested length is
 * the array as counted, NULL included, (count + 1) * 8, up to
 * SONDE_STRV_COUNT_MAX pointers (0xffffffff: no NULL among them), while
 * captured holds the first SONDE_STRV_MAX pointers and no NULL.
 */
#define SONDE_STRV_MAX 16384
#define SONDE_STRV_COUNT_MAX 65536

/* sonde_ev_payload.flags (same bits as the decoder's sonde_payload.flags) */
#define SONDE_PLR_UNREADABLE 0x1 /* the read faulted: no data */
#define SONDE_PLR_STRING 0x2     /* NUL-terminated read */
#define SONDE_PLR_NUL 0x4        /* the NUL was found (not in the data) */
#define SONDE_PLR_SHED 0x8       /* dropped under ring pressure: no data */
#define SONDE_PLR_MISSING 0x10   /* reader: the blob holding the bytes is not
				  * in the trace (cut off, damaged): no data */

struct sonde_ev_payload {
	struct sonde_hdr hdr;
	__u64 addr;      /* user address of byte 0 of the whole payload */
	__u32 requested; /* bytes the call asked for (length argument, size) */
	__u32 returned;  /* bytes it produced or consumed */
	__u32 captured;  /* bytes captured in total (<= snaplen) */
	__u32 offset;    /* this chunk's place in the captured bytes */
	__u16 nr;        /* syscall number */
	__u8 arg;        /* argument index */
	__u8 phase;      /* 0 entry, 1 exit, 2 descriptor facts */
	__u8 flags;      /* SONDE_PLR_* */
	__u8 _pad[3];
	__u32 chunk;     /* data bytes in this record */
	__u32 _pad2;
	/* __u8 data[chunk]; padded to 8 */
};

/*
 * In the trace file, payload bytes live out of line in the blob store
 * (docs/format.md, "Payload store"): the writer replaces the data of a
 * payload record by the content hashes of its pieces. The reader puts the
 * bytes back and returns SONDE_REC_PAYLOAD records, so nothing above
 * src/format/ ever sees this record:
 *
 *   0              64       68     72               92
 *   +--------------+--------+------+----------------+----
 *   | payload (as  | nblobs | pad  | hash[16], len  | ... nblobs extents,
 *   | above; chunk |        |      | (extent 0)     |     padded to 8
 *   | = bytes here)|        |      |                |
 *   +--------------+--------+------+----------------+----
 *
 * The extents, concatenated, are the bytes [offset, offset + chunk) of
 * the payload; chunk is at most SONDE_PLREF_SPAN_MAX.
 */
#define SONDE_BLOB_HASH_LEN 16
#define SONDE_PLREF_SPAN_MAX 49152

struct sonde_plref_ext {
	__u8 hash[SONDE_BLOB_HASH_LEN]; /* BLAKE2b-128 of the blob */
	__u32 len;                      /* blob bytes */
};

struct sonde_ev_plref {
	struct sonde_ev_payload p;
	__u32 nblobs;
	__u32 _pad;
	/* struct sonde_plref_ext ext[nblobs]; padded to 8 */
};

/*
 * Descriptor facts (SONDE_CAP_FDINFO): a payload record of phase
 * SONDE_PLR_PHASE_FDINFO, addr 0, whose data is one struct sonde_fdinfo
 * per descriptor the call created, read from the task's file table at
 * sys_exit. They name what has no path, as /proc/PID/fd does:
 * "socket:[ino]", "pipe:[ino]", "anon_inode:[eventfd]". Readers that do
 * not know the phase never find these bytes by address.
 *
 *   0      4        8       16     20     24                       56
 *   +------+--------+-------+------+------+------------------------+
 *   |  fd  | magic  |  ino  | mode | pad  | name (dentry, NUL-pad) |
 *   +------+--------+-------+------+------+------------------------+
 */
#define SONDE_PLR_PHASE_FDINFO 2
#define SONDE_FDINFO_NAME 32

struct sonde_fdinfo {
	__s32 fd;
	__u32 magic; /* the file system's s_magic: sockfs, pipefs, anon_inodefs... */
	__u64 ino;   /* i_ino: what strace shows in socket:[N], pipe:[N] */
	__u32 mode;  /* i_mode */
	__u32 _pad;
	char name[SONDE_FDINFO_NAME]; /* d_name: "[eventfd]", "memfd:x", "" */
};

/*
 * Socket facts (SONDE_CAP_SOCKINFO): a payload record of phase
 * SONDE_PLR_PHASE_SOCKINFO, addr 0, whose data is one struct
 * sonde_sockinfo per socket, read from struct sock at sys_exit of the
 * calls that create sockets or give them addresses (socket, socketpair,
 * accept, accept4, bind, listen, connect): what strace -yy learns from
 * sock_diag ("TCP:[127.0.0.1:80->127.0.0.1:5555]", "UNIX-STREAM:[5->6]").
 */
#define SONDE_PLR_PHASE_SOCKINFO 3
#define SONDE_SOCK_PROTO 32
#define SONDE_SOCK_PATH 108

struct sonde_sockinfo {
	__s32 fd;
	__u16 family;	/* AF_* */
	__u16 type;	/* SOCK_STREAM, SOCK_DGRAM... */
	__u64 ino;	/* the socket's inode */
	__u64 peer_ino; /* AF_UNIX: the connected peer's inode, 0 = none */
	__u8 laddr[16]; /* AF_INET(6): local address (IPv4 in the first 4) */
	__u8 raddr[16]; /* remote address */
	__u16 lport;	/* host order; 0 = not bound */
	__u16 rport;	/* host order; 0 = not connected */
	__u32 portid;	/* AF_NETLINK: port id, 0 = not bound */
	__u16 protocol; /* sk_protocol (the netlink family) */
	__u16 path_len; /* AF_UNIX: bytes of path (abstract: starts with NUL) */
	__u32 _pad;
	char proto[SONDE_SOCK_PROTO]; /* sk_prot->name: "TCP", "UNIX-STREAM" */
	char path[SONDE_SOCK_PATH];   /* AF_UNIX: the bound (or listener's) name */
	__u8 _pad2[4];
};

/*
 * Descriptors received with SCM_RIGHTS (recvmsg, recvmmsg: bpf/scm.h):
 * per descriptor an FDINFO record (and a SOCKINFO one for a socket) whose
 * addr is the user address of the descriptor's int in the cmsg, and for a
 * file with a path a record of phase SONDE_PLR_PHASE_FDPATH at the same
 * addr: the path's components from the file up to the task's root, each
 * NUL-terminated ("passwd\0etc\0" is /etc/passwd); returned is 1 when
 * the file was unlinked (/proc/PID/fd's " (deleted)"), else 0.
 */
#define SONDE_PLR_PHASE_FDPATH 4

/*
 * record --ip (strace -i): a record of phase SONDE_PLR_PHASE_IP, no data,
 * whose addr is the user instruction pointer of the call: the address
 * after its syscall instruction (regs->ip at sys_enter, what a ptracer
 * reads at the entry stop; for a call already blocked when recording
 * began, the pc of /proc/TID/syscall), emitted before the call's own
 * record, at sys_exit (or at stop, for a call still blocked then).
 */
#define SONDE_PLR_PHASE_IP 5

/*
 * User stacks (record --user-stack, strace -k): two data payloads of the
 * call, read at sys_exit (at sys_enter for exit and exit_group, which do
 * not return), where strace unwinds (bpf/ustack.h), and for execve and
 * execveat at sys_enter too (arg SONDE_USTACK_ENTRY):
 *
 *   SONDE_PLR_PHASE_REGS   addr = sp, data = the SONDE_UREGS_N user
 *                          registers in DWARF order (x86-64 psABI):
 *                          rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip
 *   SONDE_PLR_PHASE_STACK  addr = sp, data = the stack from sp up, at most
 *                          the --user-stack size and never past the end
 *                          of the stack's mapping; chunked, shed and
 *                          marked unreadable like any payload
 *
 * The unwinder (src/stack/) reads the saved registers and return
 * addresses of every frame from those bytes, offline.
 *
 * A delivered signal has the same two, for the code it interrupted, at
 * the SIGNAL record's time and with nr SONDE_PL_NR_SIGNAL.
 */
#define SONDE_PL_NR_SIGNAL 0xffff
/* Their arg: where the stack was read. */
#define SONDE_USTACK_EXIT 0
#define SONDE_USTACK_ENTRY 1 /* execve and execveat: also before the exec */
#define SONDE_PLR_PHASE_REGS 6
#define SONDE_PLR_PHASE_STACK 7
#define SONDE_UREGS_N 17
#define SONDE_USTACK_DEFAULT 262144
#define SONDE_USTACK_MAX 1048576

/*
 * KVM_RUN (strace -e kvm=vcpu): a record of phase SONDE_PLR_PHASE_KVM,
 * addr 0, whose data is struct sonde_kvm_exit: the exit_reason the vcpu's
 * struct kvm_run held when the ioctl returned, read by the kernel side
 * through the vcpu (bpf/kvm.h), where strace reads it from the tracee's
 * mapping of that struct. Only for a call that did not fail.
 */
#define SONDE_PLR_PHASE_KVM 8

struct sonde_kvm_exit {
	__u32 exit_reason; /* KVM_EXIT_* */
	__u32 _pad;
};

/* The KVM requests bpf/kvm.h tells apart (<linux/kvm.h>'s values). */
#define SONDE_KVMIO 0xae
#define SONDE_KVM_CREATE_VM 0xae01
#define SONDE_KVM_CREATE_VCPU 0xae41
#define SONDE_KVM_RUN 0xae80
#define SONDE_KVM_GET_SUPPORTED_CPUID 0xc008ae05
#define SONDE_KVM_GET_EMULATED_CPUID 0xc008ae09
#define SONDE_KVM_SET_CPUID2 0x4008ae90
#define SONDE_KVM_CPUID_ENTRY 40 /* struct kvm_cpuid_entry2 */
#define SONDE_KVM_CPUID_MAX 256	 /* the kernel's KVM_MAX_CPUID_ENTRIES */

/* What to capture for a syscall: up to SONDE_CAP_ITEMS items (keyctl
 * needs 16: strings, structs and buffers, different for each command). */
#define SONDE_CAP_ITEMS 16

enum sonde_cap_kind {
	SONDE_CAP_NONE = 0,
	SONDE_CAP_STR,     /* NUL-terminated string at arg */
	SONDE_CAP_FIXED,   /* size bytes at arg */
	SONDE_CAP_ARGLEN,  /* arg[aux] * size bytes at arg (size 0 = 1) */
	SONDE_CAP_RETLEN,  /* ret * size bytes at arg, exit only (size 0 = 1) */
	SONDE_CAP_IOV,     /* iovec[arg[aux]] at arg, and each buffer
			    * (two 32-bit words each for the calls of the
			    * SONDE_NR_I386 range, events.h) */
	SONDE_CAP_STRV,    /* NULL-terminated char *[] at arg, and each string */
	SONDE_CAP_MSGHDR,  /* struct msghdr at arg, its name, iov, control;
			    * size 1 at exit: also what the descriptors
			    * received with SCM_RIGHTS are (bpf/scm.h) */
	SONDE_CAP_SOCKLEN, /* int at arg[aux] (in/out), then that many bytes at arg */
	SONDE_CAP_FDSET,   /* fd_set of arg[0] descriptors at arg */
	SONDE_CAP_FIELD,   /* pointer at arg + aux, then size bytes there */
	SONDE_CAP_SIGMASK, /* rt_sigreturn: the signal frame's uc_sigmask */
	SONDE_CAP_FDINFO,  /* exit: what the descriptors the call created are
			    * (bpf/fdinfo.h): size 0 = the return value,
			    * size 2 = the int[2] at arg (pipe, socketpair) */
	SONDE_CAP_SOCKINFO, /* exit, also of a failed call: the sockets' names
			     * and addresses for -yy (bpf/fdinfo.h): size 0 =
			     * the return value, 1 = the fd in arg, 2 = the
			     * int[2] at arg, 3 = the fd in arg if it is a UDP
			     * or netlink socket whose local port (id)
			     * changed (autobind) */
	SONDE_CAP_MMSG,    /* struct mmsghdr[] at arg, arg[aux] of them at entry,
			    * the return value at exit (SONDE_CAP_MMSG_MAX at
			    * most), and each message as SONDE_CAP_MSGHDR;
			    * size 1: with MSGHDR's size 1 (SCM_RIGHTS) */
	SONDE_CAP_PAGES,   /* a byte per page of the arg[aux] bytes at arg
			    * (mincore's vector) */
	SONDE_CAP_FPROG,   /* if arg[aux] == size: the struct sock_fprog at
			    * arg, then its instructions (seccomp filters) */
	SONDE_CAP_NODEMASK, /* the longs of a node mask of arg[aux] - 1 bits
			     * at arg (the kernel's get_nodes) */
	SONDE_CAP_MSGBUF,  /* struct msgbuf at arg: its long mtype and
			    * arg[aux] bytes of text */
	SONDE_CAP_FIELDSTR, /* the string a pointer at arg + aux points to
			     * (bpf's attr: license, log, paths, names) */
	SONDE_CAP_IOCB,    /* io_submit: struct iocb *[arg[aux]] at arg, each
			    * iocb and the buffers or iovec it names
			    * (SONDE_CAP_IOCB_MAX at most, bpf/aio.h) */
	SONDE_CAP_URING_PROBE, /* if arg[aux] is IORING_REGISTER_PROBE: the
				* struct io_uring_probe at arg with arg[size]
				* ops (256 at most) */
	SONDE_CAP_FIELDN,  /* the array a pointer at arg + aux points to, of
			    * the u32 count right after the pointer times
			    * size bytes (bpf's PROG_QUERY: prog_ids and
			    * prog_cnt) */
	SONDE_CAP_STRUCTLEN, /* bytes at arg, as many as the u32 at offset
			      * size of the struct arg[aux] points to
			      * (keyctl_pkey_params's in_len, out_len) */
	SONDE_CAP_IOCTL,   /* ioctl, by request type (bpf/ioctl.h): KVM's
			    * structs by the size and direction their request
			    * names, a cpuid2's entries, at exit KVM_RUN's
			    * exit reason (SONDE_PLR_PHASE_KVM) and what
			    * KVM_CREATE_VM and KVM_CREATE_VCPU's new
			    * descriptor is (FDINFO); the socket requests'
			    * struct ifreq and SIOCGIFCONF's list */
};

/* Messages of a sendmmsg/recvmmsg captured (strace prints them all). */
#define SONDE_CAP_MMSG_MAX 64
/* iocbs of an io_submit captured. */
#define SONDE_CAP_IOCB_MAX 64

/* sonde_cap_item.phase bits */
#define SONDE_CAP_ENTRY 0x1
#define SONDE_CAP_EXIT 0x2
/* With EXIT: read at exit also when the call failed (a failing call that
 * writes back, as sched_setattr's E2BIG writes its size). */
#define SONDE_CAP_FAILED 0x4

/*
 * An item with a guard (when_mask != 0) is read only when the low 32 bits
 * of argument when_arg, shifted right by when_shift, minus when_base, are
 * below 64 with that bit set in when_mask: the command, request or
 * operation for which the argument is memory at all (the shift drops
 * what is not the command: quotactl's QCMD(cmd, type) is cmd << 8 | type).
 * Elsewhere it is a number, a signal or a buffer the call does not use,
 * and reading it would cost a fault or capture bytes nobody asked for
 * (fcntl's F_SETFD, ptrace's PTRACE_CONT, keyctl's READ buffer at entry).
 *
 *   0      1     2      3     4       8           16          20       21         22    24
 *   +------+-----+------+-----+-------+-----------+-----------+--------+----------+-----+
 *   | kind | arg |phase | aux | size  | when_mask | when_base |when_arg|when_shift| pad |
 *   +------+-----+------+-----+-------+-----------+-----------+--------+----------+-----+
 */
struct sonde_cap_item {
	__u8 kind;
	__u8 arg;
	__u8 phase;
	__u8 aux;
	__u32 size;
	__u64 when_mask;
	__u32 when_base;
	__u8 when_arg;
	__u8 when_shift;
	__u8 _pad[2];
};

struct sonde_cap_plan {
	struct sonde_cap_item it[SONDE_CAP_ITEMS];
};

/* Per-CPU payload accounting (BPF .bss, read by user space at stop). */
struct sonde_cap_cpu {
	__u64 records;     /* payload records emitted */
	__u64 bytes;       /* payload data bytes emitted */
	__u64 shed;        /* payloads dropped under ring pressure */
	__u64 shed_bytes;  /* their bytes */
	__u64 faults;      /* reads that faulted (recorded as unreadable) */
	__u64 nsmall;      /* small payloads seen (BPF: samples the fill check) */
	__u64 _pad[2];
};

#endif /* SONDE_PAYLOAD_H */
