// SPDX-License-Identifier: GPL-2.0
/*
 * strace decoders of calls that succeed where the fixtures cannot make
 * them succeed (tests/fixtures/strace_x_old.c and strace_x_keys.c
 * compare the failing ones with strace 6.1): set_thread_area and
 * get_thread_area are 32-bit calls, lookup_dcookie is gone, quotas need
 * CONFIG_QUOTA, keyctl's public key commands a loaded asymmetric key and
 * DH_COMPUTE keys of its own. The expected text follows strace 6.1's
 * decoders (ldt.c, quota.c, dcookie.c, keyctl.c) member by member; the
 * struct printers are the ones the fixtures check at entry.
 */
#include <asm/ldt.h>
#include <linux/keyctl.h>
#include <linux/dqblk_xfs.h>
#include <string.h>
#include <sys/quota.h>

#include "check.h"
#include "test_strace_util.h"

static struct tcall T;

/* sys/quota.h's QCMD shifts an int: Q_GETQUOTA << 8 overflows it. */
#define QC(cmd, type) (((uint32_t)(cmd) << 8) | (uint32_t)(type))

static void desc(struct user_desc *u, unsigned int entry)
{
	memset(u, 0, sizeof(*u));
	u->entry_number = entry;
	u->base_addr = 0xf7e1d000;
	u->limit = 0xfffff;
	u->seg_32bit = 1;
	u->limit_in_pages = 1;
	u->useable = 1;
}

TEST(thread_area_success)
{
	struct user_desc in, out;

	desc(&in, -1);
	desc(&out, 12);
	tc_new(&T, SYS_set_thread_area, 0, 0x1000, 0, 0, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 0, 0x1000, &in, sizeof(in));
	tc_mem(&T, SONDE_PL_EXIT, 0, 0x1000, &out, sizeof(out));
	CHECK_EQ_STR(tc_fmt(&T), "set_thread_area({entry_number=-1, base_addr=0xf7e1d000, "
				 "limit=0x0fffff, seg_32bit=1, contents=0, read_exec_only=0, "
				 "limit_in_pages=1, seg_not_present=0, useable=1, lm=0}) = 0 "
				 "(entry_number=12)");

	desc(&in, 12);
	tc_new(&T, SYS_get_thread_area, 0, 0x1000, 0, 0, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 0, 0x1000, &in, sizeof(in));
	tc_mem(&T, SONDE_PL_EXIT, 0, 0x1000, &out, sizeof(out));
	CHECK_EQ_STR(tc_fmt(&T), "get_thread_area({entry_number=12, base_addr=0xf7e1d000, "
				 "limit=0x0fffff, seg_32bit=1, contents=0, read_exec_only=0, "
				 "limit_in_pages=1, seg_not_present=0, useable=1, lm=0}) = 0");
	/* The kernel's entry differs from the one asked for. */
	out.entry_number = 13;
	tc_new(&T, SYS_get_thread_area, 0, 0x1000, 0, 0, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 0, 0x1000, &in, sizeof(in));
	tc_mem(&T, SONDE_PL_EXIT, 0, 0x1000, &out, sizeof(out));
	CHECK(strstr(tc_fmt(&T), "get_thread_area({entry_number=12 => 13, base_addr=") != NULL);
}

TEST(dcookie_success)
{
	tc_new(&T, SYS_lookup_dcookie, 10, 0x1234, 0x1000, 64, 0, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x1000, "/usr/lib/x", 10);
	CHECK_EQ_STR(tc_fmt(&T), "lookup_dcookie(4660, \"/usr/lib/x\", 64) = 10");
}

TEST(quota_getters)
{
	struct {
		uint64_t v[8];
		uint32_t valid, id;
	} dq = { { 100, 50, 4096, 0, 0, 3, 0, 0 }, 0x3f, 1001 };
	struct sonde_strace_opts o;
	uint32_t fmt = QFMT_VFS_V1;

	tc_new(&T, SYS_quotactl, 0, QC(Q_GETQUOTA, USRQUOTA), 0x1000, 1000, 0x2000, 0, 0);
	tc_str(&T, 1, 0x1000, "/dev/sda1");
	tc_mem(&T, SONDE_PL_EXIT, 3, 0x2000, &dq, sizeof(dq));
	CHECK_EQ_STR(tc_fmt(&T), "quotactl(QCMD(Q_GETQUOTA, USRQUOTA), \"/dev/sda1\", 1000, "
				 "{dqb_bhardlimit=100, dqb_bsoftlimit=50, dqb_curspace=4096, "
				 "dqb_ihardlimit=0, dqb_isoftlimit=0, dqb_curinodes=3, ...}) = 0");
	sonde_strace_opts_init(&o);
	o.verbose = 1;
	CHECK(strstr(tc_fmt_opts(&T, &o), "dqb_curinodes=3, dqb_btime=0, dqb_itime=0, "
					  "dqb_valid=QIF_BLIMITS|QIF_SPACE|QIF_ILIMITS|"
					  "QIF_INODES|QIF_BTIME|QIF_ITIME}) = 0") != NULL);

	/* if_nextdqblk: the id it found shows before "..." */
	tc_new(&T, SYS_quotactl, 0, QC(Q_GETNEXTQUOTA, USRQUOTA), 0x1000, 1000, 0x2000, 0, 0);
	tc_str(&T, 1, 0x1000, "/dev/sda1");
	tc_mem(&T, SONDE_PL_EXIT, 3, 0x2000, &dq, sizeof(dq));
	CHECK(strstr(tc_fmt(&T), "dqb_curinodes=3, dqb_id=1001, ...}) = 0") != NULL);
	CHECK(strstr(tc_fmt_opts(&T, &o), "QIF_ITIME, dqb_id=1001}) = 0") != NULL);

	tc_new(&T, SYS_quotactl, 0, QC(Q_GETFMT, GRPQUOTA), 0x1000, 0, 0x2000, 0, 0);
	tc_str(&T, 1, 0x1000, "/dev/sda1");
	tc_mem(&T, SONDE_PL_EXIT, 3, 0x2000, &fmt, sizeof(fmt));
	CHECK_EQ_STR(tc_fmt(&T),
		     "quotactl(QCMD(Q_GETFMT, GRPQUOTA), \"/dev/sda1\", [QFMT_VFS_V1]) = 0");
}

TEST(quota_xfs_getters)
{
	struct fs_disk_quota xq;
	struct fs_quota_stat st;
	struct fs_quota_statv sv;
	struct sonde_strace_opts o;

	memset(&xq, 0, sizeof(xq));
	xq.d_version = FS_DQUOT_VERSION;
	xq.d_flags = FS_PROJ_QUOTA;
	xq.d_fieldmask = 0x11;
	xq.d_id = 7;
	xq.d_bcount = 16;
	xq.d_btimer = -5;
	tc_new(&T, SYS_quotactl, 0, QC(Q_XGETQUOTA, PRJQUOTA), 0x1000, 7, 0x2000, 0, 0);
	tc_str(&T, 1, 0x1000, "/dev/sdb");
	tc_mem(&T, SONDE_PL_EXIT, 3, 0x2000, &xq, sizeof(xq));
	CHECK_EQ_STR(tc_fmt(&T), "quotactl(QCMD(Q_XGETQUOTA, PRJQUOTA), \"/dev/sdb\", 7, "
				 "{d_version=1, d_flags=FS_PROJ_QUOTA, d_fieldmask=0x11, d_id=7, "
				 "d_blk_hardlimit=0, d_blk_softlimit=0, d_ino_hardlimit=0, "
				 "d_ino_softlimit=0, d_bcount=16, d_icount=0, ...}) = 0");

	memset(&st, 0, sizeof(st));
	st.qs_version = FS_QSTAT_VERSION;
	st.qs_flags = FS_QUOTA_UDQ_ACCT | FS_QUOTA_UDQ_ENFD;
	st.qs_uquota.qfs_ino = 131;
	st.qs_uquota.qfs_nblks = 2;
	st.qs_uquota.qfs_nextents = 1;
	st.qs_incoredqs = 4;
	st.qs_btimelimit = 604800;
	tc_new(&T, SYS_quotactl, 0, QC(Q_XGETQSTAT, USRQUOTA), 0x1000, 0, 0x2000, 0, 0);
	tc_str(&T, 1, 0x1000, "/dev/sdb");
	tc_mem(&T, SONDE_PL_EXIT, 3, 0x2000, &st, sizeof(st));
	CHECK_EQ_STR(tc_fmt(&T), "quotactl(QCMD(Q_XGETQSTAT, USRQUOTA), \"/dev/sdb\", "
				 "{qs_version=1, ...}) = 0");
	sonde_strace_opts_init(&o);
	o.verbose = 1;
	CHECK_EQ_STR(tc_fmt_opts(&T, &o),
		     "quotactl(QCMD(Q_XGETQSTAT, USRQUOTA), \"/dev/sdb\", {qs_version=1, "
		     "qs_flags=FS_QUOTA_UDQ_ACCT|FS_QUOTA_UDQ_ENFD, qs_uquota={qfs_ino=131, "
		     "qfs_nblks=2, qfs_nextents=1}, qs_gquota={qfs_ino=0, qfs_nblks=0, "
		     "qfs_nextents=0}, qs_incoredqs=4, qs_btimelimit=604800, qs_itimelimit=0, "
		     "qs_rtbtimelimit=0, qs_bwarnlimit=0, qs_iwarnlimit=0}) = 0");

	memset(&sv, 0, sizeof(sv));
	sv.qs_version = FS_QSTATV_VERSION1;
	sv.qs_pquota.qfs_ino = 9;
	tc_new(&T, SYS_quotactl, 0, QC(Q_XGETQSTATV, USRQUOTA), 0x1000, 0, 0x2000, 0, 0);
	tc_str(&T, 1, 0x1000, "/dev/sdb");
	tc_mem(&T, SONDE_PL_EXIT, 3, 0x2000, &sv, sizeof(sv));
	CHECK(strstr(tc_fmt_opts(&T, &o), "{qs_version=1, qs_flags=0, qs_incoredqs=0, qs_uquota="
					  "{qfs_ino=0, qfs_nblks=0, qfs_nextents=0}, ") != NULL);
	CHECK(strstr(tc_fmt_opts(&T, &o), "qs_pquota={qfs_ino=9, qfs_nblks=0, qfs_nextents=0}, "
					  "qs_btimelimit=0, ") != NULL);
}

TEST(keyctl_crypto_success)
{
	struct keyctl_pkey_params pp = { .key_id = 7, .in_len = 3, .out_len = 4 };
	struct keyctl_pkey_query q;
	struct keyctl_dh_params dh = { .private = 1, .prime = 2, .base = 3 };

	memset(&q, 0, sizeof(q));
	q.supported_ops = KEYCTL_SUPPORTS_ENCRYPT | KEYCTL_SUPPORTS_VERIFY;
	q.key_size = 2048;
	q.max_data_size = q.max_sig_size = q.max_enc_size = q.max_dec_size = 256;
	tc_new(&T, SYS_keyctl, 0, KEYCTL_PKEY_QUERY, 7, 0, 0x1000, 0x2000, 0);
	tc_str(&T, 3, 0x1000, "enc=pkcs1");
	tc_mem(&T, SONDE_PL_EXIT, 4, 0x2000, &q, sizeof(q));
	CHECK_EQ_STR(tc_fmt(&T), "keyctl(KEYCTL_PKEY_QUERY, 7, 0, \"enc=pkcs1\", "
				 "{supported_ops=KEYCTL_SUPPORTS_ENCRYPT|KEYCTL_SUPPORTS_VERIFY, "
				 "key_size=2048, max_data_size=256, max_sig_size=256, "
				 "max_enc_size=256, max_dec_size=256}) = 0");

	/* the out buffer: out_len bytes, whatever the return value */
	tc_new(&T, SYS_keyctl, 4, KEYCTL_PKEY_ENCRYPT, 0x1000, 0x1100, 0x1200, 0x2000, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, &pp, sizeof(pp));
	tc_str(&T, 2, 0x1100, "enc=raw");
	tc_mem(&T, SONDE_PL_ENTRY, 3, 0x1200, "abc", 3);
	tc_mem(&T, SONDE_PL_EXIT, 4, 0x2000, "\1\2\3\4", 4);
	CHECK_EQ_STR(tc_fmt(&T), "keyctl(KEYCTL_PKEY_ENCRYPT, {key_id=7, in_len=3, out_len=4}, "
				 "\"enc=raw\", \"abc\", \"\\1\\2\\3\\4\") = 4");

	/* DH_COMPUTE's secret: at most buflen of the bytes it needs */
	tc_new(&T, SYS_keyctl, 6, KEYCTL_DH_COMPUTE, 0x1000, 0x2000, 4, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, &dh, sizeof(dh));
	tc_mem(&T, SONDE_PL_EXIT, 2, 0x2000, "secret", 6);
	CHECK_EQ_STR(tc_fmt(&T), "keyctl(KEYCTL_DH_COMPUTE, {private=1, prime=2, base=3}, "
				 "\"secr\", 4, NULL) = 6");
}

int main(void)
{
	RUN(thread_area_success);
	RUN(dcookie_success);
	RUN(quota_getters);
	RUN(quota_xfs_getters);
	RUN(keyctl_crypto_success);
	CHECK_EXIT();
}
