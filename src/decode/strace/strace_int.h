/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of the strace decoder: output buffer, named-constant tables
 * ("xlat", after strace), the per-call decoding state and the per-syscall
 * signature table.
 *
 * A syscall is decoded from its signature: up to six argument kinds
 * (fd, path, flags from a table, struct read at exit, ...) and a return
 * kind. Syscalls whose arguments depend on each other (fcntl, ioctl,
 * futex, clone, socket options...) have a decoder function instead.
 */
#ifndef SONDE_STRACE_INT_H
#define SONDE_STRACE_INT_H

#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sonde/strace.h>

/* Growable text buffer; on allocation failure it stops growing and sets oom. */
struct strbuf {
	char *s;
	size_t len, cap;
	int oom;
};
void sb_init(struct strbuf *b);
void sb_free(struct strbuf *b);
void sb_putc(struct strbuf *b, char c);
void sb_puts(struct strbuf *b, const char *s);
void sb_putn(struct strbuf *b, const char *s, size_t n);
void sb_printf(struct strbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Column of the cursor: characters since the last newline. */
size_t sb_col(const struct strbuf *b);

/* A named constant. Tables are searched in order: for flag sets the order
 * decides which name wins for overlapping bits (O_SYNC before O_DSYNC). */
struct xlat_ent {
	uint64_t val;
	const char *name;
};
struct xlat {
	const struct xlat_ent *e;
	unsigned int n;
	uint8_t decimal; /* raw values print in decimal, not hex */
};
#define XE(c) { (uint64_t)(c), #c }
#define XN(v, s) { (uint64_t)(v), s }
#define XLAT_DEF(name, dec, ...)                                             \
	static const struct xlat_ent name##_ents[] = { __VA_ARGS__ };         \
	const struct xlat name = { name##_ents,                               \
				   sizeof(name##_ents) / sizeof(name##_ents[0]), \
				   dec }

const char *xlat_name(const struct xlat *x, uint64_t v);

#include "decode/strace/fdtab.h"

struct sonde_line;

/* Deepest nesting of structs and arrays the separators are tracked for. */
#define ST_MAXDEPTH 16

/*
 * Decoding state of one call. One decoder serves two sinks: strace text
 * (j == NULL) and JSON (j != NULL). Decoders describe what they print with
 * the structure calls of emit.c (st_obj_begin, st_field, st_elem, st_sep,
 * ...) and the value printers (pr_*, ps_*); each of those writes the
 * sink's syntax:
 *
 *   text   openat(AT_FDCWD, "/x", O_RDONLY|O_CLOEXEC)
 *          {st_mode=S_IFREG|0644, st_size=42, ...}
 *   JSON   {"dirfd":"AT_FDCWD","pathname":"/x","flags":["O_RDONLY","O_CLOEXEC"]}
 *          {"st_mode":"S_IFREG|0644","st_size":42,...}
 *
 * Text that only strace shows (comments, "htons(...)", "...") goes to o
 * directly; in JSON mode o is a scratch buffer nobody reads. The argument
 * list is the object at depth 0: its keys are the syscall's parameter
 * names (st_argnames), the argument being argi, moved on by st_sep.
 */
struct st {
	struct strbuf *o;
	const struct sonde_strace_opts *opt;
	const struct sonde_call *c;
	const struct sonde_ev_syscall *sc;
	struct fdtab *fds; /* NULL: no -y decoration */
	struct sonde_line *fdmap; /* -y: "FD":"PATH" members of each fd decorated */
	int64_t ret;
	int err;         /* errno of a failed call, else 0 */
	int err_u32;     /* the error came as a u32 (st_ret_errno) */
	int noret;       /* never returned: "= ?" */
	/* printed after the return value, e.g. " (flags O_RDWR)"; grows, as
	 * poll's list of revents can be long */
	struct strbuf rv_aux;
	uint8_t rkind;   /* return kind; decoders may change it */
	/* text: where strace's entering half of the line ends (length of o
	 * then), 0 until st_entry_end; see st_entry_end */
	size_t split;
	/* structured output */
	struct sonde_line *j;	/* JSON sink, NULL for text */
	struct sonde_line *jres; /* JSON: the "result" object's members */
	const char *const *argnames; /* parameter names of this syscall */
	const char *jkey;	/* JSON: key of the next value in an object */
	uint8_t depth;		/* nesting below the argument list */
	uint8_t argi;		/* argument the next top-level value is */
	uint8_t argdone;	/* JSON: bit i set once argument i was written */
	uint16_t nitems[ST_MAXDEPTH]; /* items written at each depth */
	uint32_t isarr;		/* bit d: depth d is an array, else an object */
	/* pr_iov: the buffers hold netlink messages (a msghdr naming an
	 * AF_NETLINK peer), of this protocol or ST_NL_NONE; 0: they do not */
	uint8_t iov_nl;
	int iov_nlproto;
	/* -e verbose= leaves the call out: the text shows its structs and
	 * arrays as their addresses (st_deref) */
	uint8_t addr_only;
};

static inline uint64_t st_arg(const struct st *s, int i)
{
	return s->sc->args[i];
}
/* The call returned successfully (and did return). */
static inline int st_ok(const struct st *s)
{
	return !s->noret && !s->err;
}

/*
 * The memory of a struct or an array may be shown: not in the text of a
 * call -e verbose= leaves out, where strace prints its address instead
 * (JSON keeps every value).
 */
static inline int st_deref(const struct st *s)
{
	return s->j || !s->addr_only;
}

/* Arrays stop with "..." after -s elements, unless -v. */
static inline int st_array_cut(const struct st *s, uint64_t i)
{
	return !s->j && !s->opt->verbose && i >= s->opt->strsize;
}

/*
 * emit.c: the text so far is what strace prints when the call enters; the
 * rest (output arguments, and every argument after the first of them) it
 * prints when the call returns. A call another task's line interrupts is
 * split there: "read(3,  <unfinished ...>" and "<... read resumed>"...".
 * Decoders call it before their first output argument (after its ", ");
 * calls that print everything at entry need not call it.
 */
void st_entry_end(struct st *s);

/* emit.c: structure, shared by both sinks. */
/* Next argument (text ", "). */
void st_sep(struct st *s);
/* Argument i comes next, for decoders that print out of order or skip. */
void st_sep_at(struct st *s, int i);
void st_obj_begin(struct st *s); /* { */
void st_obj_end(struct st *s);   /* } */
void st_arr_begin(struct st *s); /* [ */
void st_arr_end(struct st *s);   /* ] */
/* A member of the current struct: text "[, ]name=", JSON "name": */
void st_field(struct st *s, const char *name);
/* Same, when JSON names the member differently from strace. */
void st_field2(struct st *s, const char *text, const char *json);
/* An element of the current array: text "[, ]". */
void st_elem(struct st *s);
/* Closes a struct strace abridges without -v: text ", ...}". */
void st_obj_end_cut(struct st *s);
/* JSON only: key of the next value (members strace shows no name for). */
void st_jkey(struct st *s, const char *key);
/* JSON: starts a value (comma, key) and returns the line to write it to. */
struct sonde_line *st_jv(struct st *s);
void st_jstr(struct st *s, const char *str);
void st_jstrn(struct st *s, const uint8_t *p, size_t n);
void st_jint(struct st *s, int64_t v);
void st_juint(struct st *s, uint64_t v);
void st_jbool(struct st *s, int v);
/* A symbolic value (UTIME_NOW, SIG_DFL...): text as is, JSON a string. */
void pr_sym(struct st *s, const char *name);
/* Memory a decoder could not show: the address in text; in JSON
 * {"addr":"0x...","unreadable":true} (false: not captured). */
void pr_unfetched(struct st *s, int phase, uint64_t addr);
/* A value the call reads and updates through a pointer: [128 => 16]. */
void pr_inout(struct st *s, int have_in, int64_t in, int have_out,
	      int64_t out, uint64_t addr);
/*
 * A decoded part of the return value: text into t->o (the caller's
 * scratch buffer b, copied to rv_aux by st_res_end), JSON into the call's
 * "result" object under key. t is a copy of s to print with.
 */
void st_res_begin(struct st *s, struct st *t, struct strbuf *b,
		  const char *key);
void st_res_end(struct st *s, struct st *t, struct strbuf *b);
/* " (NAME)" after the return value; JSON "result":{key:"NAME"}. */
void st_res_name(struct st *s, const char *key, const char *name);
/*
 * Composite flag values strace prints from several tables (MAP_PRIVATE|
 * MAP_ANONYMOUS, CLONE_VM|SIGCHLD, B38400|CS8|CREAD...): the decoder
 * prints them as text with the st that st_cap_begin returns (s itself in
 * text mode); in JSON st_cap_flags then writes the '|'-separated names as
 * an array, ["MAP_PRIVATE","MAP_ANONYMOUS"].
 */
struct st_cap {
	struct st t;
	struct strbuf b;
	struct sonde_strace_opts o;
};
struct st *st_cap_begin(struct st *s, struct st_cap *c);
void st_cap_flags(struct st *s, struct st_cap *c);
/* Appends names of the bits of v to an open JSON array (flag sets). */
void st_jflag_names(struct st *s, const struct xlat *x, uint64_t v);

/* out.c: scalars, addresses, strings, buffers */
void pr_addr(struct st *s, uint64_t a);
void pr_int(struct st *s, uint64_t v);   /* int, decimal */
void pr_uint(struct st *s, uint64_t v);  /* unsigned int */
void pr_long(struct st *s, uint64_t v);  /* long */
void pr_ulong(struct st *s, uint64_t v); /* unsigned long */
void pr_hex(struct st *s, uint64_t v);   /* %#lx, 0 as 0 */
void pr_id(struct st *s, uint32_t v);    /* uid, gid: -1 as -1 */
void pr_oct(struct st *s, uint64_t v);   /* mode bits, %#03o */
void pr_fd(struct st *s, int fd);
/* A process or thread id: with -Y, "<name>" after it (pidname.h). */
void pr_pid(struct st *s, uint64_t v);
/* A child the call made (fork's result, clone's parent_tid): it has the
 * caller's name, the child's record coming after the call's entry. */
void pr_pid_child(struct st *s, uint64_t v);
/* With -Y, "<name>" of pid, if strace would print one. */
void pr_pid_name(struct st *s, int pid);
/* A process group or session id the call returned: -Y names none, pidns
 * translates it (it names an existing group, whose leader's id it is). */
void pr_pgid(struct st *s, uint64_t v);
void pr_dirfd(struct st *s, uint64_t v);
/* Quotes len bytes as strace does; ellipsis appends "..." */
void pr_quoted(struct st *s, const uint8_t *p, size_t len, int nul_term,
	       int ellipsis, int force_hex);
/* The bytes between strace's quotes, escaped as it does (hex: every byte
 * as \xNN; SB_HEX_CHARS: the unprintable ones, not in octal); angle:
 * '<' and '>' too, as in the names -y and -Y put in angle brackets. */
#define SB_HEX_CHARS 2
void sb_escape(struct strbuf *o, const uint8_t *p, size_t len, int nul_term, int hex,
	       int angle);
/* Same, knowing the length of the whole string when it is cut (JSON says
 * it; UINT64_MAX: unknown). */
void pr_quoted_len(struct st *s, const uint8_t *p, size_t len, int nul_term,
		   int ellipsis, int force_hex, uint64_t full);
/* A path (PATH_MAX limit, not -s), read at entry or, for getcwd, exit. */
void pr_path_at(struct st *s, int phase, uint64_t addr);
static inline void pr_path(struct st *s, uint64_t addr)
{
	pr_path_at(s, SONDE_PL_ENTRY, addr);
}
/* A NUL-terminated string shown up to -s, from phase memory. */
void pr_cstr(struct st *s, int phase, uint64_t addr);
/* The same, from a buffer of max bytes (strace's printstr_ex with a
 * length and QUOTE_0_TERMINATED). */
void pr_cstr_max(struct st *s, int phase, uint64_t addr, size_t max);
/* A buffer of len bytes shown up to -s; force_hex for binary data. */
void pr_buf(struct st *s, int phase, uint64_t addr, uint64_t len,
	    int force_hex);
/* An output buffer: the bytes the call returned, or its address when
 * it failed. */
void pr_buf_ret(struct st *s, uint64_t addr);
/*
 * Copies size bytes at addr of phase into dst. On success returns 1; else
 * prints NULL or the address, as strace does, and returns 0.
 */
int st_fetch(struct st *s, int phase, uint64_t addr, void *dst, size_t size);
/* Copies without printing anything; returns 1 when the bytes exist and
 * may be shown (st_deref). */
int st_peek(const struct st *s, int phase, uint64_t addr, void *dst,
	    size_t size);
/* The same whatever -e verbose= says: for what decides the line's
 * shape, never for what it shows. */
int st_read(const struct st *s, int phase, uint64_t addr, void *dst, size_t size);
/* dec_io.c: n elements of esz bytes at a are in phase memory, readable. */
int st_have_array(struct st *s, int phase, uint64_t a, uint64_t n, size_t esz);
/* Same as st_fetch, but a short payload is fine: returns the bytes copied (>0). */
size_t st_fetch_upto(struct st *s, int phase, uint64_t addr, void *dst,
		     size_t size);
/* out.c: n members of esz (at most 8) bytes at a in phase memory, each
 * given to pr as a little-endian number, as strace's print_array shows
 * them: NULL, [], the address, "..." after -s members, "... /\* 0xADDR *\/"
 * where memory ends. */
void pr_mem_array(struct st *s, int phase, uint64_t a, uint64_t n, size_t esz,
		  void (*pr)(struct st *s, uint64_t v));
/* The same for members of up to 64 bytes (structs), each given to pr as
 * a pointer to its bytes. */
void pr_mem_array_of(struct st *s, int phase, uint64_t a, uint64_t n, size_t esz,
		     void (*pr)(struct st *s, const void *e));
/* Hexdump of len bytes, strace's -e read=/write= format, to b. */
void pr_hexdump(struct strbuf *b, const uint8_t *p, size_t len);

/* xlat.c */
/*
 * A value strace shows as an expression (SIG_IGN, 8192*1024, htons(80),
 * makedev(0x1, 0x3)): in text, -X abbrev prints sym, raw num, verbose
 * "num /\* sym *\/". Text only: JSON callers print the value themselves.
 */
void pr_symexpr(struct st *s, const char *num, const char *sym);
/* Text only: an errno value as strace's print_err shows it, ENOKEY (-X
 * raw 126, verbose "126 /\* ENOKEY *\/"); negated (a status, an ack),
 * -EFAULT for -14. A value without a name is a bare number. */
void pr_errno_text(struct st *s, uint32_t v, int negated);
void pr_flags(struct st *s, const struct xlat *x, uint64_t v,
	      const char *dflt);
/* Text only: flags strace prints with no default name (printflags_in
 * with NULL): unnamed bits stay a bare number, and -X raw prints nothing
 * for 0. */
void pr_flags_in(struct st *s, const struct xlat *x, uint64_t v);
void pr_xval(struct st *s, const struct xlat *x, uint64_t v,
	     const char *dflt);
/* Flags into a bare string (no -X style), e.g. for fcntl return notes. */
void sb_flags(struct strbuf *b, const struct xlat *x, uint64_t v);
void pr_open_flags(struct st *s, uint64_t v);
void pr_sig(struct st *s, uint64_t v);
const char *st_signame(int sig, char *buf, size_t len);
void pr_sigset_bytes(struct st *s, const uint8_t *p, size_t len);
void pr_sigset(struct st *s, int phase, uint64_t addr, uint64_t size);
void pr_kernel_sigset(struct st *s, uint64_t addr);
void pr_mode_t(struct st *s, uint64_t mode); /* S_IFREG|0644 */
void pr_clockid(struct st *s, uint64_t v);

/* Named constant tables (xlat_*.c). */
extern const struct xlat x_open_access, x_open_flags, x_at_flags,
	x_at_statx_sync, x_access_mode, x_prot, x_map_type, x_map_flags,
	x_madv, x_msync, x_mremap, x_mlockall, x_fcntl_cmd, x_fd_flags,
	x_seek, x_s_ifmt, x_statx_mask, x_statx_attrs, x_dirent_type,
	x_lock_ops, x_falloc, x_fadvise, x_renameat2, x_efd, x_tfd_create,
	x_tfd_set, x_sfd, x_inotify_init, x_inotify_mask, x_mfd, x_xattr,
	x_splice, x_sync_file_range, x_close_range, x_mount, x_umount,
	x_resolve, x_statfs_flags, x_faccessat_flags, x_fsmagic, x_rwf;
extern const struct xlat x_signals, x_errnos, x_clone_flags, x_unshare,
	x_futex_op, x_sa_flags, x_sigprocmask, x_rlimit, x_clocks,
	x_timer_flags, x_wait_opts, x_idtype, x_itimer, x_rusage_who,
	x_prio_which, x_sched_policy, x_getrandom, x_membarrier,
	x_personality, x_persona_flags, x_prctl, x_arch_prctl,
	x_ipc_flags, x_shm_flags, x_rseq, x_pidfd;
extern const struct xlat x_pkey_access, x_uffd, x_memfd_secret, x_kcmp,
	x_open_tree, x_fsopen, x_fsmount, x_mount_attr, x_move_mount, x_fspick,
	x_mount_setattr, x_mount_propagation, x_fsconfig, x_landlock_fs,
	x_landlock_create, x_landlock_rule, x_uring_setup, x_uring_feat,
	x_uring_enter, x_uring_register, x_uring_ops, x_uring_op_flags, x_futex2_flags,
	x_mlock2, x_delete_module, x_finit_module, x_kexec_file_flags,
	x_seccomp_filter_flags;
/* sockaddr_ll.c: a packet socket's ethernet protocol, network order
 * (htons(ETH_P_ALL)); the fields of a struct sockaddr_ll after sa_family,
 * closing the struct. */
void pr_eth_proto(struct st *s, uint16_t net);
void pr_sockaddr_ll(struct st *s, const uint8_t *p);
/* sockopt_val.c: option values strace decodes beyond ints and
 * multicast requests, for setsockopt (phase entry) and getsockopt. */
void pr_icmp_filter(struct st *s, int phase, uint64_t a, int len);
void pr_packet_mreq(struct st *s, uint64_t a, int len);
void pr_tpacket_req(struct st *s, uint64_t a, int len);
void pr_sock_fprog_set(struct st *s, uint64_t a, int len);
void pr_txrehash(struct st *s, uint64_t a, int len);
/* xlat_sockopt.c: the table naming option name of level in setsockopt
 * (get 0) or getsockopt, with the default name for a number it lacks in
 * *dflt; NULL when strace prints the level's options as numbers. */
const struct xlat *sockopt_xlat(int level, uint32_t name, int get, const char **dflt);
extern const struct xlat x_sock_family, x_sock_type, x_sock_flags,
	x_ipproto, x_nl_protocols, x_msg_flags, x_shutdown, x_sol, x_scm, x_ip_cmsg,
	x_poll, x_epoll_events,
	x_epoll_ctl, x_epoll_create;

/* structs.c, structs_proc.c: struct printers; phase chooses entry or exit
 * memory. */
typedef void (*st_struct_fn)(struct st *s, int phase, uint64_t addr);
void ps_timespec(struct st *s, int phase, uint64_t addr);
void ps_timeval(struct st *s, int phase, uint64_t addr);
void ps_timespec_pair(struct st *s, int phase, uint64_t addr);
void ps_timeval_pair(struct st *s, int phase, uint64_t addr);
void ps_itimerspec(struct st *s, int phase, uint64_t addr);
void ps_itimerval(struct st *s, int phase, uint64_t addr);
void ps_stat(struct st *s, int phase, uint64_t addr);
void ps_statx(struct st *s, int phase, uint64_t addr);
void ps_statfs(struct st *s, int phase, uint64_t addr);
void ps_rlimit(struct st *s, int phase, uint64_t addr);
/* The printers behind ps_stat, ps_statfs, ps_stack_t and ps_rlimit, for
 * structs already read. */
struct stat;
struct statfs;
void pr_stat(struct st *s, const struct stat *b);
void pr_statfs(struct st *s, const struct statfs *b);
void pr_stack_t(struct st *s, const stack_t *ss);
void pr_rlimit(struct st *s, const uint64_t r[2], uint64_t infinity);
/* i386 layouts (dec_i386.c): struct stat64 and a 32-bit struct rlimit. */
void ps_stat64_i386(struct st *s, int phase, uint64_t addr);
void ps_stat_i386(struct st *s, int phase, uint64_t addr);
/* dec_io.c: mmap's arguments, the offset given in bytes. */
void pr_mmap(struct st *s, uint64_t off);
void ps_rlimit_i386(struct st *s, int phase, uint64_t addr);
void ps_timespec_i386(struct st *s, int phase, uint64_t addr);
void ps_stack_t_i386(struct st *s, int phase, uint64_t addr);
void ps_timeval_i386(struct st *s, int phase, uint64_t addr);
void ps_rusage(struct st *s, int phase, uint64_t addr);
void ps_utsname(struct st *s, int phase, uint64_t addr);
void ps_sysinfo(struct st *s, int phase, uint64_t addr);
void ps_tms(struct st *s, int phase, uint64_t addr);
void ps_int(struct st *s, int phase, uint64_t addr);    /* [1] */
/* An int the call writes: [1] at exit, its address when the call failed. */
void ps_int_out(struct st *s, uint64_t addr);
void ps_child(struct st *s, int phase, uint64_t addr);  /* [1234<sh>]: pr_pid_child */
void ps_uint(struct st *s, int phase, uint64_t addr);
void ps_ulong(struct st *s, int phase, uint64_t addr);  /* [N] */
void ps_uptr(struct st *s, int phase, uint64_t addr);   /* [0x7f...]: a pointer stored */
void ps_off(struct st *s, int phase, uint64_t addr);    /* [N] loff_t */
void ps_fdpair(struct st *s, int phase, uint64_t addr); /* [3, 4] */
void ps_sched_param(struct st *s, int phase, uint64_t addr);
void ps_utimbuf(struct st *s, int phase, uint64_t addr);
void ps_timezone(struct st *s, int phase, uint64_t addr);
void ps_stack_t(struct st *s, int phase, uint64_t addr);
void ps_wait_status(struct st *s, int phase, uint64_t addr);
void ps_siginfo(struct st *s, int phase, uint64_t addr);
/* The same; pid_named 0: si_pid without -Y's name (a child waitid reaped). */
void ps_siginfo_named(struct st *s, int phase, uint64_t addr, int pid_named);
void ps_sigevent(struct st *s, int phase, uint64_t addr); /* dec_timer.c */
void ps_cpuset(struct st *s, int phase, uint64_t addr, uint64_t len);
void ps_open_how(struct st *s, int phase, uint64_t addr, uint64_t size);
void ps_epoll_event(struct st *s, const void *ev);
void pr_time_t_comment(struct st *s, int64_t sec, int64_t nsec);
/* Members of structs: "name=" and the number (JSON "name":N). */
void pr_u32_field(struct st *s, const char *name, uint32_t v);
void pr_int_field(struct st *s, const char *name, int v);
void pr_ulong_field(struct st *s, const char *name, uint64_t v);
void pr_long_field(struct st *s, const char *name, int64_t v);
void pr_hex_field(struct st *s, const char *name, uint64_t v); /* %#x */
/* A char array of max bytes up to its NUL: name="loop0". */
void pr_chars_field(struct st *s, const char *name, const void *v, size_t max);
/* {tv_sec=1, tv_usec=2} of a struct timeval. */
struct timeval;
void pr_tv_fields(struct st *s, const struct timeval *tv);
/* {tv_sec=1, tv_nsec=2} of a struct timespec. */
void pr_ts_fields(struct st *s, int64_t sec, int64_t nsec);
/* A device number: makedev(0x8, 0x1), JSON {"major":8,"minor":1}. */
void pr_dev(struct st *s, unsigned int maj, unsigned int min);

/* net.c */
void pr_sockaddr(struct st *s, int phase, uint64_t addr, uint64_t len);
void pr_sockaddr_bytes(struct st *s, const uint8_t *p, size_t len);
/* n bytes at p as strace's -X raw shows an address: "\x7f\x00..." */
void net_bytes(char *buf, size_t len, const void *p, size_t n);
/* sockopt_val.c: a link-layer address, n bytes as 00:11:22:33:44:55;
 * -X raw its n_raw bytes (32 at most) in hex, -X verbose both. */
void pr_hwaddr(struct st *s, const uint8_t *p, size_t n_raw, size_t n);
void pr_inet_addr(struct st *s, const void *addr); /* inet_addr("127.0.0.1") */
void pr_inet6_addr(struct st *s, const void *addr); /* inet_pton(AF_INET6, "::1") */
/* An in6_addr field: inet_pton(AF_INET6, "::1", &name), with -X
 * name="\x00..." /\* inet_pton(AF_INET6, "::1") *\/ (JSON: jname). */
void pr_inet6_field(struct st *s, const char *name, const char *jname, const void *addr);
/* htons(80): v from the n bytes in network order at raw (fn "htons"). */
void pr_wrapped_u(struct st *s, const char *fn, unsigned int v, const void *raw, size_t n);
/* A name strace quotes in an expression (an address, an interface): as
 * is, or in hex under -xx, "\x6c\x6f" (into buf). */
const char *st_quote_name(const struct st *s, const char *in, char *buf, size_t len);
/* len / esz members of esz (1 to 4) bytes at d, each printed by pr;
 * cut after -s of them: [64], [0x10, 0]. */
void pr_local_array(struct st *s, const uint8_t *d, size_t len, size_t esz,
		    void (*pr)(struct st *s, uint64_t v));
/* pr_iov's data_len of a failed read: iov_base shown as an address. */
#define IOV_ADDRS (UINT64_MAX - 1)
void pr_iov(struct st *s, int phase, uint64_t addr, uint64_t cnt,
	    uint64_t data_len);

/* dec_ipc.c: the kernel's struct shmid64_ds, msqid64_ds, semid64_ds on
 * x86-64 (the recorder captures that much). */
#define IPC_SHMID_DS_SIZE 112
#define IPC_MSQID_DS_SIZE 120
#define IPC_SEMID_DS_SIZE 104

/* dec_keys.c: a key serial number, or the name of a special one. */
void pr_key(struct st *s, uint64_t v);
/* dec_keys_crypto.c: the arguments after keyctl's command for
 * DH_COMPUTE, the PKEY_* commands and CAPABILITIES; 0 for others. */
int keyctl_crypto(struct st *s, int cmd);

/* dec_ioctl_blk.c: the rest of the line of a block or loop device
 * request (its ", arg", or nothing when it takes none); 0 for others. */
int ioctl_block(struct st *s, uint32_t req, uint64_t a);
/* dec_ioctl_seccomp.c: the same for the seccomp listener's requests
 * (SECCOMP_IOCTL_NOTIF_*). */
int ioctl_seccomp(struct st *s, uint32_t req, uint64_t a);
/* dec_ioctl_kvm.c: the same for KVM's requests; also sets what the
 * return value is and, for KVM_RUN, its exit reason */
int ioctl_kvm(struct st *s, uint32_t req, uint64_t a);
/* dec_ioctl_sock.c: the same for the socket requests (type 0x89) */
int ioctl_sock(struct st *s, uint32_t req, uint64_t a);
/* dec_perf.c: the same for a perf event's requests (type '$') */
int ioctl_perf(struct st *s, uint32_t req, uint64_t a);
/* dec_ioctl_misc.c: the same for nsfs's, the random device's,
 * userfaultfd's and the file system's of type 'X' */
int ioctl_misc(struct st *s, uint32_t req, uint64_t a);

/* dec_ptrace.c: AUDIT_ARCH_* names; a syscall number as __NR_read. */
extern const struct xlat x_audit_arch;
void pr_nr_sym(struct st *s, uint64_t nr);

/* dec_seccomp.c: a struct sock_fprog of seccomp filters, at entry; the
 * len instructions at addr of phase memory (with -v: else the address). */
void pr_seccomp_fprog(struct st *s, uint64_t addr);
void pr_seccomp_filter(struct st *s, int phase, uint64_t addr, unsigned int len);

/* dec_uring.c: struct io_uring_params, read at entry and exit. */
#define URING_PARAMS_SIZE 120

/* msghdr.c */
void pr_msghdr(struct st *s, int phase, uint64_t addr, uint64_t data_len);
/* An interface index: if_nametoindex("lo") where the printing host
 * knows it, else the number. */
void pr_ifindex(struct st *s, unsigned int idx);
/* cmsg_data.c: cmsg_data printers, given the len bytes at d. */
void pr_cmsg_timeval(struct st *s, const uint8_t *d, size_t len);
void pr_cmsg_timespec(struct st *s, const uint8_t *d, size_t len);
void pr_cmsg_timestamping(struct st *s, const uint8_t *d, size_t len);
void pr_cmsg_recverr(struct st *s, const uint8_t *d, size_t len);
/* Bytes IP_RECVERR's data needs: sock_extended_err and the offender. */
#define CMSG_RECVERR_LEN 32

/* netlink.c: the netlink protocol of fd's socket (NETLINK_ROUTE...),
 * ST_NL_NONE when it is not known to be a netlink socket, ST_NL_UNKNOWN
 * for a netlink socket whose protocol strace cannot learn. */
#define ST_NL_NONE (-1)
#define ST_NL_UNKNOWN (-2)
int st_netlink_proto(struct st *s, int fd);
/* len bytes of netlink messages at a, as strace shows them; proto is
 * the socket's protocol, ST_NL_NONE when unknown (control messages and
 * headers are decoded, payloads shown raw). */
void pr_netlink(struct st *s, int phase, uint64_t a, uint64_t len, int proto);

/* The argument kinds of signatures. */
enum st_kind {
	K_NONE = 0,
	K_INT,    /* int, decimal */
	K_UINT,   /* unsigned int */
	K_LONG,   /* long */
	K_ULONG,  /* unsigned long, size_t */
	K_HEX,    /* hex number */
	K_PTR,    /* address, NULL */
	K_OCT,    /* permission bits, 0644 */
	K_MODE,   /* S_IFCHR|0644 (mknod) */
	K_FD,     /* descriptor, -y decorated */
	K_DIRFD,  /* AT_FDCWD or descriptor */
	K_PATH,   /* path at entry */
	K_STR,    /* NUL-terminated string at entry, -s */
	K_BUFI,   /* input buffer, length = arg[aux] */
	K_BUFO,   /* output buffer, length = return value */
	K_FLAGS,  /* flag set from x */
	K_XVAL,   /* enum from x */
	K_SIG,    /* signal number */
	K_UID,    /* uid_t/gid_t, -1 shown as -1 */
	K_OFF,    /* loff_t, decimal */
	K_IN,     /* struct at entry, printer fn */
	K_OUT,    /* struct at exit (address if the call failed) */
	K_IOVI,   /* iovec array at entry, count = arg[aux] */
	K_IOVO,   /* iovec array at exit, count = arg[aux] */
	K_SSETI,  /* sigset at entry, size = arg[aux] */
	K_SSETO,  /* sigset at exit, size = arg[aux] */
	K_SADDRI, /* sockaddr at entry, length = arg[aux] */
	K_CLOCK,  /* clockid_t */
	K_OPENF,  /* open(2) flags */
	K_SKIP,   /* not shown: the high half of preadv2's offset */
	K_PID,    /* process or thread id (-Y names it); groups are K_INT */
};

struct st_arg {
	uint8_t kind;
	uint8_t aux;
	const struct xlat *x;
	st_struct_fn fn;
};

/* Return kinds. */
enum st_rkind {
	R_DEC = 0, /* long, decimal */
	R_HEX,     /* address */
	R_FD,      /* new descriptor (-y decorated) */
	R_OCT,     /* umask */
	R_UDEC,    /* unsigned */
	R_PID,     /* a process or thread id (-Y names it) */
	R_CHILD,   /* the id of a child the call made (pr_pid_child) */
	R_PGID,    /* a process group or session: no name, but pidns's
		    * translation (pr_pgid) */
};

typedef void (*st_dec_fn)(struct st *s);

struct st_sig {
	uint8_t known; /* the entry exists */
	uint8_t nargs;
	uint8_t rkind;
	struct st_arg a[6];
	st_dec_fn fn; /* when set, prints all arguments itself */
};

extern const struct st_sig st_sigs[SONDE_NR_SYSCALLS];
/* The i386 calls recorded as SONDE_NR_I386 + n (events.h), by n. */
extern const struct st_sig st_sigs_i386[SONDE_NR_I386_LEN];
/* The signature of a recorded number, NULL past both tables. */
const struct st_sig *st_sig_of(uint32_t nr);
/* The number whose decoder and capture plan a recorded call takes: an
 * i386 call without its own signature takes its x86-64 twin's of another
 * name (getuid32: getuid), the same arguments and layouts; others their
 * own. */
uint32_t st_decoded_nr(uint32_t nr);

/* Bytes of a user pointer in the call's ABI: 4 in an i386 call. */
static inline unsigned int st_ptr_size(const struct sonde_ev_syscall *sc)
{
	return sc->hdr.flags & SONDE_SC_COMPAT ? 4 : 8;
}
/* argnames.c (generated): the kernel's parameter names, by number. */
extern const char *const st_argnames[SONDE_NR_SYSCALLS][6];

/* Prints argument i of s according to a (used by decoders for parts). */
void st_print_arg(struct st *s, const struct st_arg *a, int i);

/*
 * decode.c: "name(args)" into o and the return value text into ret. mid,
 * when set, runs in between: the renderer updates its descriptor tables
 * there, so arguments show the descriptors before the call (close(3</x>))
 * and a returned descriptor shows what it became (= 3</x>).
 */
void st_format_args(struct strbuf *o, const struct sonde_strace_opts *opt,
		    const struct sonde_call *c, struct fdtab *fds,
		    struct strbuf *ret, void (*mid)(void *arg), void *arg,
		    struct sonde_line *fdmap);
/* The same, also giving the offset in o where strace's entering half ends
 * (st_entry_end). */
void st_format_split(struct strbuf *o, const struct sonde_strace_opts *opt,
		     const struct sonde_call *c, struct fdtab *fds,
		     struct strbuf *ret, void (*mid)(void *arg), void *arg,
		     struct sonde_line *fdmap, size_t *split);
/*
 * decode.c: the JSON sink. Appends the object of named arguments to args
 * ("{...}") and the members of the "result" object (without braces, may
 * stay empty) to res. Returns 0, or -1 when the syscall has no decoder.
 */
int st_format_json(struct sonde_line *args, struct sonde_line *res,
		   const struct sonde_strace_opts *opt,
		   const struct sonde_call *c);

/* decode.c: the errno of a failed call as strace sees it, else 0;
 * *as_u32 when it came as a 32-bit number strace prints (modify_ldt). */
int st_ret_errno(const struct sonde_ev_syscall *sc, const struct sonde_strace_opts *opt,
		 int *as_u32);

/* Decoder functions (dec_*.c). */
#define DEC(name) void dec_##name(struct st *s)
DEC(open); DEC(openat); DEC(openat2); DEC(fcntl); DEC(ioctl);
DEC(getdents64); DEC(getdents); DEC(readlink); DEC(readlinkat);
DEC(getcwd); DEC(mknod); DEC(mknodat); DEC(getxattr); DEC(fgetxattr);
DEC(listxattr); DEC(flistxattr); DEC(setxattr); DEC(fsetxattr);
DEC(statx); DEC(utimensat); DEC(close_range);
DEC(clone); DEC(clone3); DEC(execve); DEC(execveat); DEC(wait4);
DEC(waitid); DEC(futex); DEC(rt_sigaction); DEC(rt_sigprocmask);
DEC(rt_sigtimedwait); DEC(rt_sigreturn); DEC(prctl); DEC(arch_prctl); DEC(prlimit64);
DEC(getrandom); DEC(sched_getaffinity); DEC(sched_setaffinity);
DEC(getgroups); DEC(setgroups); DEC(nanosleep); DEC(clock_nanosleep);
DEC(poll); DEC(ppoll); DEC(select); DEC(pselect6); DEC(epoll_ctl);
DEC(epoll_wait); DEC(epoll_pwait); DEC(socket); DEC(socketpair);
DEC(accept); DEC(accept4); DEC(getsockname); DEC(sendto); DEC(recvfrom);
DEC(sendmsg); DEC(recvmsg); DEC(sendmmsg); DEC(recvmmsg);
DEC(setsockopt); DEC(getsockopt); DEC(mmap); DEC(sendfile);
DEC(copy_file_range); DEC(splice); DEC(shmget); DEC(ipcget2);
DEC(semget); DEC(shmat); DEC(shmctl); DEC(msgctl); DEC(semctl);
DEC(mincore); DEC(seccomp); DEC(epoll_pwait2);
DEC(pkey_alloc); DEC(userfaultfd); DEC(memfd_secret); DEC(kcmp); DEC(fsconfig);
DEC(mount_setattr); DEC(landlock_create_ruleset); DEC(landlock_add_rule);
DEC(process_madvise); DEC(io_uring_setup); DEC(io_uring_enter);
DEC(io_uring_register); DEC(futex_waitv); DEC(bpf);
DEC(personality); DEC(sched_getscheduler); DEC(mremap);
DEC(ptrace); DEC(mq_open); DEC(mq_timedsend); DEC(mq_timedreceive); DEC(mq_notify);
DEC(mq_getsetattr); DEC(perf_event_open); DEC(kexec_load); DEC(add_key); DEC(request_key); DEC(keyctl); DEC(fanotify_init); DEC(fanotify_mark); DEC(name_to_handle_at);
DEC(open_by_handle_at); DEC(remap_file_pages); DEC(restart_syscall); DEC(msgsnd); DEC(msgrcv); DEC(semop); DEC(semtimedop); DEC(process_vm_readv);
DEC(process_vm_writev); DEC(syslog); DEC(reboot); DEC(swapon); DEC(adjtimex);
DEC(clock_adjtime); DEC(capget); DEC(capset); DEC(sched_getattr); DEC(sched_setattr); DEC(ioprio_get);
DEC(ioprio_set); DEC(mbind); DEC(set_mempolicy); DEC(get_mempolicy); DEC(migrate_pages); DEC(move_pages);
DEC(io_setup); DEC(io_submit); DEC(io_getevents); DEC(io_pgetevents); DEC(io_cancel);
DEC(getpriority); DEC(setpriority); DEC(modify_ldt); DEC(set_thread_area); DEC(get_thread_area); DEC(quotactl); DEC(quotactl_fd);
/* i386 calls: dec_i386.c; waitpid in dec_proc.c */
DEC(mmap2); DEC(llseek); DEC(fcntl64); DEC(waitpid); DEC(pread64_i386); DEC(pwrite64_i386);
DEC(statfs64); DEC(fstatfs64);
#undef DEC

#endif /* SONDE_STRACE_INT_H */
