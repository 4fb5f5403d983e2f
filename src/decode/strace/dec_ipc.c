// SPDX-License-Identifier: GPL-2.0
/*
 * The System V IPC control calls, as strace prints them: the struct the
 * kernel filled for the STAT and INFO commands (at exit), the one it is
 * given for IPC_SET (at entry, the fields IPC_SET uses only), an address
 * for the other commands:
 *   shmctl(3, IPC_STAT, {shm_perm={uid=0, gid=0, mode=0600, key=0,
 *          cuid=0, cgid=0}, shm_segsz=8192, shm_cpid=12, ...}) = 0
 *   semctl(3, 0, SETVAL, 0x7ffc00000005) = 0
 * The structs are the kernel's 64-bit ones (linux/shm.h...): on x86-64
 * glibc passes no IPC_64 and the kernel uses them anyway.
 */
#include <linux/msg.h>
#include <linux/sem.h>
#include <linux/shm.h>

#include "decode/strace/strace_int.h"

_Static_assert(sizeof(struct shmid64_ds) == IPC_SHMID_DS_SIZE, "shmid64_ds");
_Static_assert(sizeof(struct msqid64_ds) == IPC_MSQID_DS_SIZE, "msqid64_ds");
_Static_assert(sizeof(struct semid64_ds) == IPC_SEMID_DS_SIZE, "semid64_ds");

#define CMD_IPC_64 0x100

XLAT_DEF(x_shmctl_cmd, 0, XE(IPC_RMID), XE(IPC_SET), XE(IPC_STAT), XE(IPC_INFO),
	 XE(SHM_LOCK), XE(SHM_UNLOCK), XE(SHM_STAT), XE(SHM_INFO), XE(SHM_STAT_ANY));
XLAT_DEF(x_msgctl_cmd, 0, XE(IPC_RMID), XE(IPC_SET), XE(IPC_STAT), XE(IPC_INFO),
	 XE(MSG_STAT), XE(MSG_INFO), XE(MSG_STAT_ANY));
XLAT_DEF(x_semctl_cmd, 0, XE(IPC_RMID), XE(IPC_SET), XE(IPC_STAT), XE(IPC_INFO),
	 XE(GETPID), XE(GETVAL), XE(GETALL), XE(GETNCNT), XE(GETZCNT), XE(SETVAL),
	 XE(SETALL), XE(SEM_STAT), XE(SEM_INFO), XE(SEM_STAT_ANY));

/* When each command's struct is shown. */
enum ipc_show { SHOW_ADDR, SHOW_SET, SHOW_STAT, SHOW_INFO };

/* The command: "IPC_64|" first when the caller set it, as strace. */
static void pr_ipc_cmd(struct st *s, const struct xlat *x, uint32_t cmd, const char *dflt)
{
	if ((cmd & CMD_IPC_64) && !s->j)
		sb_puts(s->o, "IPC_64|");
	pr_xval(s, x, cmd & ~CMD_IPC_64, dflt);
}

/* A uid or gid: (uid_t)-1 as -1. */
static void pr_id_field(struct st *s, const char *name, uint32_t v)
{
	st_field(s, name);
	if (v == UINT32_MAX)
		pr_int(s, (uint64_t)-1);
	else
		pr_uint(s, v);
}

static void pr_ipc_perm(struct st *s, const struct ipc64_perm *p, int set)
{
	st_obj_begin(s);
	pr_id_field(s, "uid", p->uid);
	pr_id_field(s, "gid", p->gid);
	st_field(s, "mode");
	pr_oct(s, p->mode);
	if (!set) {
		pr_u32_field(s, "key", (uint32_t)p->key);
		pr_id_field(s, "cuid", p->cuid);
		pr_id_field(s, "cgid", p->cgid);
	}
	st_obj_end(s);
}

static void pr_shmid_ds(struct st *s, const struct shmid64_ds *d, int set)
{
	st_obj_begin(s);
	st_field(s, "shm_perm");
	pr_ipc_perm(s, &d->shm_perm, set);
	if (!set) {
		pr_ulong_field(s, "shm_segsz", d->shm_segsz);
		st_field(s, "shm_cpid");
		pr_pid(s, (uint64_t)(int64_t)d->shm_cpid);
		st_field(s, "shm_lpid");
		pr_pid(s, (uint64_t)(int64_t)d->shm_lpid);
		pr_ulong_field(s, "shm_nattch", d->shm_nattch);
		pr_ulong_field(s, "shm_atime", (uint64_t)d->shm_atime);
		pr_ulong_field(s, "shm_dtime", (uint64_t)d->shm_dtime);
		pr_ulong_field(s, "shm_ctime", (uint64_t)d->shm_ctime);
	}
	st_obj_end(s);
}

static void pr_shm_info(struct st *s, unsigned int cmd, const void *b)
{
	const struct shminfo64 *i = b;
	const struct shm_info *u = b;

	st_obj_begin(s);
	if (cmd == IPC_INFO) {
		pr_ulong_field(s, "shmmax", i->shmmax);
		pr_ulong_field(s, "shmmin", i->shmmin);
		pr_ulong_field(s, "shmmni", i->shmmni);
		pr_ulong_field(s, "shmseg", i->shmseg);
		pr_ulong_field(s, "shmall", i->shmall);
	} else {
		pr_int_field(s, "used_ids", u->used_ids);
		pr_ulong_field(s, "shm_tot", u->shm_tot);
		pr_ulong_field(s, "shm_rss", u->shm_rss);
		pr_ulong_field(s, "shm_swp", u->shm_swp);
		pr_ulong_field(s, "swap_attempts", u->swap_attempts);
		pr_ulong_field(s, "swap_successes", u->swap_successes);
	}
	st_obj_end(s);
}

static void pr_msqid_ds(struct st *s, const struct msqid64_ds *d, int set)
{
	st_obj_begin(s);
	st_field(s, "msg_perm");
	pr_ipc_perm(s, &d->msg_perm, set);
	if (!set) {
		pr_ulong_field(s, "msg_stime", (uint64_t)d->msg_stime);
		pr_ulong_field(s, "msg_rtime", (uint64_t)d->msg_rtime);
		pr_ulong_field(s, "msg_ctime", (uint64_t)d->msg_ctime);
		pr_ulong_field(s, "msg_qnum", d->msg_qnum);
	}
	pr_ulong_field(s, "msg_qbytes", d->msg_qbytes);
	if (!set) {
		pr_int_field(s, "msg_lspid", d->msg_lspid);
		pr_int_field(s, "msg_lrpid", d->msg_lrpid);
	}
	st_obj_end(s);
}

static void pr_msginfo(struct st *s, unsigned int cmd, const void *b)
{
	const struct msginfo *i = b;

	(void)cmd;
	st_obj_begin(s);
	pr_int_field(s, "msgpool", i->msgpool);
	pr_int_field(s, "msgmap", i->msgmap);
	pr_int_field(s, "msgmax", i->msgmax);
	pr_int_field(s, "msgmnb", i->msgmnb);
	pr_int_field(s, "msgmni", i->msgmni);
	pr_int_field(s, "msgssz", i->msgssz);
	pr_int_field(s, "msgtql", i->msgtql);
	pr_u32_field(s, "msgseg", i->msgseg);
	st_obj_end(s);
}

static void pr_semid_ds(struct st *s, const struct semid64_ds *d, int set)
{
	st_obj_begin(s);
	st_field(s, "sem_perm");
	pr_ipc_perm(s, &d->sem_perm, set);
	if (!set) {
		pr_ulong_field(s, "sem_otime", (uint64_t)d->sem_otime);
		pr_ulong_field(s, "sem_ctime", (uint64_t)d->sem_ctime);
		pr_ulong_field(s, "sem_nsems", d->sem_nsems);
	}
	st_obj_end(s);
}

static void pr_seminfo(struct st *s, unsigned int cmd, const void *b)
{
	const struct seminfo *i = b;

	(void)cmd;
	st_obj_begin(s);
	pr_int_field(s, "semmap", i->semmap);
	pr_int_field(s, "semmni", i->semmni);
	pr_int_field(s, "semmns", i->semmns);
	pr_int_field(s, "semmnu", i->semmnu);
	pr_int_field(s, "semmsl", i->semmsl);
	pr_int_field(s, "semopm", i->semopm);
	pr_int_field(s, "semume", i->semume);
	pr_int_field(s, "semusz", i->semusz);
	pr_int_field(s, "semvmx", i->semvmx);
	pr_int_field(s, "semaem", i->semaem);
	st_obj_end(s);
}

/* How one of the calls shows its buffer. */
struct ipc_kind {
	const struct xlat *cmds;
	const char *dflt;
	/* the call's own commands: X_STAT, X_STAT_ANY, X_INFO */
	unsigned int stat, stat_any, info_cmd;
	size_t ds_size, info_size;
	void (*ds)(struct st *s, const void *b, int set);
	void (*info)(struct st *s, unsigned int cmd, const void *b);
};

static void pr_shmid_any(struct st *s, const void *b, int set)
{
	pr_shmid_ds(s, b, set);
}

static void pr_msqid_any(struct st *s, const void *b, int set)
{
	pr_msqid_ds(s, b, set);
}

static void pr_semid_any(struct st *s, const void *b, int set)
{
	pr_semid_ds(s, b, set);
}

static const struct ipc_kind k_shm = {
	&x_shmctl_cmd, "SHM_???", SHM_STAT, SHM_STAT_ANY, SHM_INFO, sizeof(struct shmid64_ds),
	sizeof(struct shm_info) > sizeof(struct shminfo64) ? sizeof(struct shm_info)
							   : sizeof(struct shminfo64),
	pr_shmid_any, pr_shm_info,
};
static const struct ipc_kind k_msg = {
	&x_msgctl_cmd, "MSG_???", MSG_STAT, MSG_STAT_ANY, MSG_INFO, sizeof(struct msqid64_ds), sizeof(struct msginfo),
	pr_msqid_any, pr_msginfo,
};
static const struct ipc_kind k_sem = {
	&x_semctl_cmd, "SEM_???", SEM_STAT, SEM_STAT_ANY, SEM_INFO, sizeof(struct semid64_ds), sizeof(struct seminfo),
	pr_semid_any, pr_seminfo,
};

static enum ipc_show ipc_show(const struct ipc_kind *k, unsigned int cmd)
{
	if (cmd == IPC_SET)
		return SHOW_SET;
	if (cmd == IPC_STAT || cmd == k->stat || cmd == k->stat_any)
		return SHOW_STAT;
	if (cmd == IPC_INFO || cmd == k->info_cmd)
		return SHOW_INFO;
	return SHOW_ADDR;
}

/* The buffer argument: at entry for IPC_SET, at exit for STAT and INFO
 * (an address if the call failed or the memory is missing). */
static void pr_ipc_buf(struct st *s, const struct ipc_kind *k, unsigned int cmd, uint64_t addr)
{
	enum ipc_show how = ipc_show(k, cmd);
	uint8_t b[IPC_SHMID_DS_SIZE > IPC_MSQID_DS_SIZE ? IPC_SHMID_DS_SIZE : IPC_MSQID_DS_SIZE];
	size_t need = how == SHOW_INFO ? k->info_size : k->ds_size;

	_Static_assert(IPC_SEMID_DS_SIZE <= sizeof(b), "ipc buffer");
	if (how == SHOW_ADDR) {
		pr_addr(s, addr);
		return;
	}
	if (how != SHOW_SET)
		st_entry_end(s);
	if (need > sizeof(b) || (how != SHOW_SET && !st_ok(s))) {
		pr_addr(s, addr);
		return;
	}
	if (!st_fetch(s, how == SHOW_SET ? SONDE_PL_ENTRY : SONDE_PL_EXIT, addr, b, need))
		return;
	if (how == SHOW_INFO)
		k->info(s, cmd, b);
	else
		k->ds(s, b, how == SHOW_SET);
}

static void dec_ipcctl(struct st *s, const struct ipc_kind *k, int cmd_arg)
{
	uint32_t cmd = (uint32_t)st_arg(s, cmd_arg);

	pr_ipc_cmd(s, k->cmds, cmd, k->dflt);
	st_sep(s);
	pr_ipc_buf(s, k, cmd & ~CMD_IPC_64, st_arg(s, cmd_arg + 1));
}

void dec_shmctl(struct st *s)
{
	pr_int(s, st_arg(s, 0));
	st_sep(s);
	dec_ipcctl(s, &k_shm, 1);
}

void dec_msgctl(struct st *s)
{
	pr_int(s, st_arg(s, 0));
	st_sep(s);
	dec_ipcctl(s, &k_msg, 1);
}

/* semctl's fourth argument is a union semun passed by value: a pointer
 * for the struct commands, a number (printed as one) for the others. */
void dec_semctl(struct st *s)
{
	pr_int(s, st_arg(s, 0));
	st_sep(s);
	pr_int(s, st_arg(s, 1));
	st_sep(s);
	dec_ipcctl(s, &k_sem, 2);
}
