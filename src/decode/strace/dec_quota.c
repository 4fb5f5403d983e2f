// SPDX-License-Identifier: GPL-2.0
/*
 * Disk quotas as strace 6.1 prints them: quotactl and quotactl_fd. The
 * command argument is QCMD(cmd, type), cmd << 8 | type; what the data
 * argument is (a path, a struct in or out, a flag word, nothing) and
 * whether the id is shown depend on cmd.
 */
#include <linux/dqblk_xfs.h>
#include <linux/quota.h>
#include <stdio.h>

#include "decode/strace/strace_int.h"

#define Q_OLD(c) ((uint32_t)(c) << 8)

XLAT_DEF(x_quota_cmds, 0, XN(Q_OLD(0x1), "Q_V1_QUOTAON"), XN(Q_OLD(0x2), "Q_V1_QUOTAOFF"),
	 XN(Q_OLD(0x3), "Q_V1_GETQUOTA"), XN(Q_OLD(0x4), "Q_V1_SETQUOTA"),
	 XN(Q_OLD(0x5), "Q_V1_SETUSE"), XN(Q_OLD(0x6), "Q_V1_SYNC"), XN(Q_OLD(0x7), "Q_SETQLIM"),
	 XN(Q_OLD(0x8), "Q_V1_GETSTATS"), XN(Q_OLD(0x10), "Q_V1_RSQUASH"),
	 XN(Q_OLD(0xd), "Q_V2_GETQUOTA"), XN(Q_OLD(0xe), "Q_V2_SETQUOTA"),
	 XN(Q_OLD(0xf), "Q_V2_SETUSE"), XN(Q_OLD(0x9), "Q_V2_GETINFO"),
	 XN(Q_OLD(0xa), "Q_V2_SETINFO"), XN(Q_OLD(0xb), "Q_V2_SETGRACE"),
	 XN(Q_OLD(0xc), "Q_V2_SETFLAGS"), XN(Q_OLD(0x11), "Q_V2_GETSTATS"),
	 XE(Q_SYNC), XE(Q_QUOTAON), XE(Q_QUOTAOFF),
	 XE(Q_GETFMT), XE(Q_GETINFO), XE(Q_SETINFO),
	 XE(Q_GETQUOTA), XE(Q_SETQUOTA),
	 XE(Q_GETNEXTQUOTA), XE(Q_XQUOTAON),
	 XE(Q_XQUOTAOFF), XE(Q_XGETQUOTA), XE(Q_XSETQLIM),
	 XE(Q_XGETQSTAT), XE(Q_XQUOTARM),
	 XE(Q_XQUOTASYNC), XE(Q_XGETQSTATV),
	 XE(Q_XGETNEXTQUOTA));
XLAT_DEF(x_quota_types, 0, XN(0, "USRQUOTA"), XN(1, "GRPQUOTA"), XN(2, "PRJQUOTA"));
XLAT_DEF(x_quota_formats, 0, XN(1, "QFMT_VFS_OLD"), XN(2, "QFMT_VFS_V0"), XN(3, "QFMT_OCFS2"),
	 XN(4, "QFMT_VFS_V1"), XN(5, "QFMT_SHMEM"));
XLAT_DEF(x_xfs_quota_flags, 0, XN(1, "FS_QUOTA_UDQ_ACCT"), XN(2, "FS_QUOTA_UDQ_ENFD"),
	 XN(4, "FS_QUOTA_GDQ_ACCT"), XN(8, "FS_QUOTA_GDQ_ENFD"), XN(16, "FS_QUOTA_PDQ_ACCT"),
	 XN(32, "FS_QUOTA_PDQ_ENFD"));
XLAT_DEF(x_xfs_dqblk_flags, 0, XN(1, "FS_USER_QUOTA"), XN(2, "FS_PROJ_QUOTA"),
	 XN(4, "FS_GROUP_QUOTA"));
XLAT_DEF(x_dqblk_valid, 0, XN(1, "QIF_BLIMITS"), XN(2, "QIF_SPACE"), XN(4, "QIF_ILIMITS"),
	 XN(8, "QIF_INODES"), XN(16, "QIF_BTIME"), XN(32, "QIF_ITIME"));
XLAT_DEF(x_dqinfo_flags, 0, XN(1, "DQF_ROOT_SQUASH"), XN(1 << 16, "DQF_SYS_FILE"));
XLAT_DEF(x_dqinfo_valid, 0, XN(1, "IIF_BGRACE"), XN(2, "IIF_IGRACE"), XN(4, "IIF_FLAGS"));

/* The kernel's struct if_dqblk and if_nextdqblk (linux/quota.h), 72
 * bytes each on x86-64; dqb_id is if_nextdqblk's. */
struct q_dqblk {
	uint64_t bhardlimit, bsoftlimit, curspace, ihardlimit, isoftlimit, curinodes;
	uint64_t btime, itime;
	uint32_t valid, id;
};

struct q_dqinfo {
	uint64_t bgrace, igrace;
	uint32_t flags, valid;
};

/* QCMD(Q_GETQUOTA, USRQUOTA), a number (-X raw), or both (-X verbose);
 * names missing from the tables as strace's "0x55 /\* Q_??? *\/". */
static void pr_qcmd(struct st *s, uint32_t qcmd)
{
	const char *cmd = xlat_name(&x_quota_cmds, qcmd >> 8);
	const char *type = xlat_name(&x_quota_types, qcmd & 0xff);
	char c[48], t[48], sym[112], num[16];

	if (cmd)
		snprintf(c, sizeof(c), "%s", cmd);
	else
		snprintf(c, sizeof(c), "%#x /* Q_??? */", qcmd >> 8);
	if (type)
		snprintf(t, sizeof(t), "%s", type);
	else
		snprintf(t, sizeof(t), "%#x /* ???QUOTA */", qcmd & 0xff);
	snprintf(sym, sizeof(sym), "QCMD(%s, %s)", c, t);
	snprintf(num, sizeof(num), "%u", qcmd);
	if (s->j)
		pr_sym(s, sym);
	else
		pr_symexpr(s, num, sym);
}

static void pr_flags_field(struct st *s, const char *name, const struct xlat *x, uint64_t v,
			   const char *dflt)
{
	st_field(s, name);
	pr_flags(s, x, v, dflt);
}

/* struct if_dqblk, or if_nextdqblk (next): -v shows the times and the
 * valid flags; without it, if_nextdqblk's id still comes before "...". */
static void ps_dqblk(struct st *s, int phase, uint64_t a, int next)
{
	struct q_dqblk d;

	if (!st_fetch(s, phase, a, &d, next ? 72 : 68))
		return;
	st_obj_begin(s);
	pr_ulong_field(s, "dqb_bhardlimit", d.bhardlimit);
	pr_ulong_field(s, "dqb_bsoftlimit", d.bsoftlimit);
	pr_ulong_field(s, "dqb_curspace", d.curspace);
	pr_ulong_field(s, "dqb_ihardlimit", d.ihardlimit);
	pr_ulong_field(s, "dqb_isoftlimit", d.isoftlimit);
	pr_ulong_field(s, "dqb_curinodes", d.curinodes);
	if (!s->j && !s->opt->verbose) {
		if (next)
			pr_u32_field(s, "dqb_id", d.id);
		st_obj_end_cut(s);
		return;
	}
	pr_ulong_field(s, "dqb_btime", d.btime);
	pr_ulong_field(s, "dqb_itime", d.itime);
	pr_flags_field(s, "dqb_valid", &x_dqblk_valid, d.valid, "QIF_???");
	if (next)
		pr_u32_field(s, "dqb_id", d.id);
	st_obj_end(s);
}

static void ps_dqinfo(struct st *s, int phase, uint64_t a)
{
	struct q_dqinfo d;

	if (!st_fetch(s, phase, a, &d, sizeof(d)))
		return;
	st_obj_begin(s);
	pr_ulong_field(s, "dqi_bgrace", d.bgrace);
	pr_ulong_field(s, "dqi_igrace", d.igrace);
	pr_flags_field(s, "dqi_flags", &x_dqinfo_flags, d.flags, "DQF_???");
	pr_flags_field(s, "dqi_valid", &x_dqinfo_valid, d.valid, "IIF_???");
	st_obj_end(s);
}

/* XFS's fs_disk_quota_t (Q_XGETQUOTA, Q_XSETQLIM...). */
static void ps_fs_disk_quota(struct st *s, int phase, uint64_t a)
{
	struct fs_disk_quota d;

	if (!st_fetch(s, phase, a, &d, sizeof(d)))
		return;
	st_obj_begin(s);
	pr_int_field(s, "d_version", d.d_version);
	pr_flags_field(s, "d_flags", &x_xfs_dqblk_flags, (uint8_t)d.d_flags, "FS_???_QUOTA");
	pr_hex_field(s, "d_fieldmask", d.d_fieldmask);
	pr_u32_field(s, "d_id", d.d_id);
	pr_ulong_field(s, "d_blk_hardlimit", d.d_blk_hardlimit);
	pr_ulong_field(s, "d_blk_softlimit", d.d_blk_softlimit);
	pr_ulong_field(s, "d_ino_hardlimit", d.d_ino_hardlimit);
	pr_ulong_field(s, "d_ino_softlimit", d.d_ino_softlimit);
	pr_ulong_field(s, "d_bcount", d.d_bcount);
	pr_ulong_field(s, "d_icount", d.d_icount);
	if (!s->j && !s->opt->verbose) {
		st_obj_end_cut(s);
		return;
	}
	pr_int_field(s, "d_itimer", d.d_itimer);
	pr_int_field(s, "d_btimer", d.d_btimer);
	pr_u32_field(s, "d_iwarns", d.d_iwarns);
	pr_u32_field(s, "d_bwarns", d.d_bwarns);
	pr_ulong_field(s, "d_rtb_hardlimit", d.d_rtb_hardlimit);
	pr_ulong_field(s, "d_rtb_softlimit", d.d_rtb_softlimit);
	pr_ulong_field(s, "d_rtbcount", d.d_rtbcount);
	pr_int_field(s, "d_rtbtimer", d.d_rtbtimer);
	pr_u32_field(s, "d_rtbwarns", d.d_rtbwarns);
	st_obj_end(s);
}

/* fs_quota_stat and fs_quota_statv, as one: their members print alike. */
struct qstat {
	int version, btimelimit, itimelimit, rtbtimelimit;
	uint32_t flags, incoredqs, bwarnlimit, iwarnlimit;
	struct {
		uint64_t ino, nblks;
		uint32_t nextents;
	} file[3]; /* user, group, project (statv only) */
};

#define QSTAT_FROM(d, q)                                                  \
	do {                                                              \
		(d)->version = (q).qs_version;                            \
		(d)->flags = (q).qs_flags;                                \
		(d)->incoredqs = (q).qs_incoredqs;                        \
		(d)->btimelimit = (q).qs_btimelimit;                      \
		(d)->itimelimit = (q).qs_itimelimit;                      \
		(d)->rtbtimelimit = (q).qs_rtbtimelimit;                  \
		(d)->bwarnlimit = (q).qs_bwarnlimit;                      \
		(d)->iwarnlimit = (q).qs_iwarnlimit;                      \
		(d)->file[0].ino = (q).qs_uquota.qfs_ino;                 \
		(d)->file[0].nblks = (q).qs_uquota.qfs_nblks;             \
		(d)->file[0].nextents = (q).qs_uquota.qfs_nextents;       \
		(d)->file[1].ino = (q).qs_gquota.qfs_ino;                 \
		(d)->file[1].nblks = (q).qs_gquota.qfs_nblks;             \
		(d)->file[1].nextents = (q).qs_gquota.qfs_nextents;       \
	} while (0)

static void pr_qfile(struct st *s, const struct qstat *q, int i)
{
	static const char *const names[] = { "qs_uquota", "qs_gquota", "qs_pquota" };

	st_field(s, names[i]);
	st_obj_begin(s);
	pr_ulong_field(s, "qfs_ino", q->file[i].ino);
	pr_ulong_field(s, "qfs_nblks", q->file[i].nblks);
	pr_u32_field(s, "qfs_nextents", q->file[i].nextents);
	st_obj_end(s);
}

/* Version, then the rest with -v: the V form has the count of dquots
 * before the files, and a project file. */
static void pr_qstat(struct st *s, const struct qstat *q, int v)
{
	st_obj_begin(s);
	pr_int_field(s, "qs_version", q->version);
	if (!s->j && !s->opt->verbose) {
		st_obj_end_cut(s);
		return;
	}
	pr_flags_field(s, "qs_flags", &x_xfs_quota_flags, q->flags, "FS_QUOTA_???");
	if (v)
		pr_u32_field(s, "qs_incoredqs", q->incoredqs);
	for (int i = 0; i < 2 + v; i++)
		pr_qfile(s, q, i);
	if (!v)
		pr_u32_field(s, "qs_incoredqs", q->incoredqs);
	pr_int_field(s, "qs_btimelimit", q->btimelimit);
	pr_int_field(s, "qs_itimelimit", q->itimelimit);
	pr_int_field(s, "qs_rtbtimelimit", q->rtbtimelimit);
	pr_u32_field(s, "qs_bwarnlimit", q->bwarnlimit);
	pr_u32_field(s, "qs_iwarnlimit", q->iwarnlimit);
	st_obj_end(s);
}

/* Q_XGETQSTAT (v 0) or Q_XGETQSTATV (v 1), at exit. */
static void ps_quota_stat(struct st *s, uint64_t a, int v)
{
	struct fs_quota_statv qv;
	struct fs_quota_stat q;
	struct qstat d;

	if (v) {
		if (!st_fetch(s, SONDE_PL_EXIT, a, &qv, sizeof(qv)))
			return;
		QSTAT_FROM(&d, qv);
		d.file[2].ino = qv.qs_pquota.qfs_ino;
		d.file[2].nblks = qv.qs_pquota.qfs_nblks;
		d.file[2].nextents = qv.qs_pquota.qfs_nextents;
	} else {
		if (!st_fetch(s, SONDE_PL_EXIT, a, &q, sizeof(q)))
			return;
		QSTAT_FROM(&d, q);
	}
	pr_qstat(s, &d, v);
}

/* A u32 at a in brackets, named from x: [QFMT_VFS_V1], [FS_USER_QUOTA]. */
static void pr_q_word(struct st *s, int phase, uint64_t a, const struct xlat *x, const char *dflt,
		      int flags)
{
	uint32_t v;

	if (!st_fetch(s, phase, a, &v, sizeof(v)))
		return;
	if (!s->j)
		sb_putc(s->o, '[');
	if (flags)
		pr_flags(s, x, v, dflt);
	else
		pr_xval(s, x, v, dflt);
	if (!s->j)
		sb_putc(s->o, ']');
}

/* ", id, " and the data argument next (argument idx, the last). */
static void q_id(struct st *s, uint32_t id, int idx)
{
	st_sep_at(s, idx - 1);
	pr_id(s, id);
	st_sep_at(s, idx);
}

/* The arguments after QCMD and special (or fd), by command: the id
 * (argument idx - 1) for the commands of one id, the data (idx). */
static void q_data(struct st *s, uint32_t cmd, uint32_t id, uint64_t a, int idx)
{
	switch (cmd) {
	case Q_SYNC:
	case Q_QUOTAOFF:
	case Q_XQUOTASYNC:
		return;
	case Q_QUOTAON: /* the format and the quota file */
		st_sep_at(s, idx - 1);
		pr_xval(s, &x_quota_formats, id, "QFMT_VFS_???");
		st_sep_at(s, idx);
		pr_path(s, a);
		return;
	case Q_GETQUOTA:
	case Q_GETNEXTQUOTA:
		q_id(s, id, idx);
		st_entry_end(s);
		ps_dqblk(s, SONDE_PL_EXIT, a, cmd == Q_GETNEXTQUOTA);
		return;
	case Q_SETQUOTA:
		q_id(s, id, idx);
		ps_dqblk(s, SONDE_PL_ENTRY, a, 0);
		return;
	case Q_XGETQUOTA:
	case Q_XGETNEXTQUOTA:
		q_id(s, id, idx);
		st_entry_end(s);
		ps_fs_disk_quota(s, SONDE_PL_EXIT, a);
		return;
	case Q_XSETQLIM:
		q_id(s, id, idx);
		ps_fs_disk_quota(s, SONDE_PL_ENTRY, a);
		return;
	case Q_GETFMT:
		st_sep_at(s, idx);
		st_entry_end(s);
		pr_q_word(s, SONDE_PL_EXIT, a, &x_quota_formats, "QFMT_VFS_???", 0);
		return;
	case Q_GETINFO:
		st_sep_at(s, idx);
		st_entry_end(s);
		ps_dqinfo(s, SONDE_PL_EXIT, a);
		return;
	case Q_SETINFO:
		st_sep_at(s, idx);
		ps_dqinfo(s, SONDE_PL_ENTRY, a);
		return;
	case Q_XGETQSTAT:
	case Q_XGETQSTATV:
		st_sep_at(s, idx);
		st_entry_end(s);
		ps_quota_stat(s, a, cmd == Q_XGETQSTATV);
		return;
	case Q_XQUOTAON:
	case Q_XQUOTAOFF:
		st_sep_at(s, idx);
		pr_q_word(s, SONDE_PL_ENTRY, a, &x_xfs_quota_flags, "FS_QUOTA_???", 1);
		return;
	case Q_XQUOTARM:
		st_sep_at(s, idx);
		pr_q_word(s, SONDE_PL_ENTRY, a, &x_xfs_dqblk_flags, "FS_???_QUOTA", 1);
		return;
	}
	/* Any other command: the id and the address. */
	q_id(s, id, idx);
	pr_addr(s, a);
}

void dec_quotactl(struct st *s)
{
	uint32_t qcmd = (uint32_t)st_arg(s, 0);

	pr_qcmd(s, qcmd);
	st_sep(s);
	pr_path(s, st_arg(s, 1));
	q_data(s, qcmd >> 8, (uint32_t)st_arg(s, 2), st_arg(s, 3), 3);
}

void dec_quotactl_fd(struct st *s)
{
	uint32_t qcmd = (uint32_t)st_arg(s, 1);

	pr_fd(s, (int)(uint32_t)st_arg(s, 0));
	st_sep(s);
	pr_qcmd(s, qcmd);
	q_data(s, qcmd >> 8, (uint32_t)st_arg(s, 2), st_arg(s, 3), 3);
}
