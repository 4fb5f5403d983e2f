// SPDX-License-Identifier: GPL-2.0
/*
 * Struct printers for the x86-64 ABI: time, stat/statx/statfs, resource
 * limits and usage, utsname, sysinfo, wait status, siginfo... Each takes
 * the phase (entry or exit memory) and the user address and prints NULL,
 * the address (memory not captured or unreadable), or the decoded struct
 * in strace's field syntax; -v switches from the abridged "..." forms to
 * every field.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysinfo.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>

#include <sonde/signal.h>

#include "decode/strace/strace_int.h"

/* " /\* 2026-11-21T09:23:17.339542667+0000 *\/" after a time_t. */
void pr_time_t_comment(struct st *s, int64_t sec, int64_t nsec)
{
	time_t t = (time_t)sec;
	struct tm tm;
	char d[64], z[16];

	if (s->opt->xlat == SONDE_XLAT_RAW || !localtime_r(&t, &tm))
		return;
	strftime(d, sizeof(d), "%Y-%m-%dT%H:%M:%S", &tm);
	strftime(z, sizeof(z), "%z", &tm);
	if (nsec)
		sb_printf(s->o, " /* %s.%09lld%s */", d, (long long)nsec, z);
	else
		sb_printf(s->o, " /* %s%s */", d, z);
}

static void pr_ts_fields(struct st *s, int64_t sec, int64_t nsec)
{
	sb_printf(s->o, "{tv_sec=%lld, tv_nsec=%lld}", (long long)sec,
		  (long long)nsec);
}

void ps_timespec(struct st *s, int phase, uint64_t addr)
{
	struct timespec ts;

	if (st_fetch(s, phase, addr, &ts, sizeof(ts)))
		pr_ts_fields(s, ts.tv_sec, ts.tv_nsec);
}

void ps_timeval(struct st *s, int phase, uint64_t addr)
{
	struct timeval tv;

	if (st_fetch(s, phase, addr, &tv, sizeof(tv)))
		sb_printf(s->o, "{tv_sec=%lld, tv_usec=%lld}",
			  (long long)tv.tv_sec, (long long)tv.tv_usec);
}

/* utimensat's times: UTIME_NOW and UTIME_OMIT are named. */
static void pr_utime_ts(struct st *s, const struct timespec *t)
{
	sb_printf(s->o, "{tv_sec=%lld, tv_nsec=", (long long)t->tv_sec);
	if (t->tv_nsec == UTIME_NOW)
		sb_puts(s->o, "UTIME_NOW}");
	else if (t->tv_nsec == UTIME_OMIT)
		sb_puts(s->o, "UTIME_OMIT}");
	else
		sb_printf(s->o, "%lld}", (long long)t->tv_nsec);
}

void ps_timespec_pair(struct st *s, int phase, uint64_t addr)
{
	struct timespec t[2];

	if (!st_fetch(s, phase, addr, t, sizeof(t)))
		return;
	sb_putc(s->o, '[');
	pr_utime_ts(s, &t[0]);
	sb_puts(s->o, ", ");
	pr_utime_ts(s, &t[1]);
	sb_putc(s->o, ']');
}

void ps_timeval_pair(struct st *s, int phase, uint64_t addr)
{
	struct timeval t[2];

	if (!st_fetch(s, phase, addr, t, sizeof(t)))
		return;
	sb_printf(s->o, "[{tv_sec=%lld, tv_usec=%lld}, {tv_sec=%lld, tv_usec=%lld}]",
		  (long long)t[0].tv_sec, (long long)t[0].tv_usec,
		  (long long)t[1].tv_sec, (long long)t[1].tv_usec);
}

void ps_itimerspec(struct st *s, int phase, uint64_t addr)
{
	struct itimerspec it;

	if (!st_fetch(s, phase, addr, &it, sizeof(it)))
		return;
	sb_puts(s->o, "{it_interval=");
	pr_ts_fields(s, it.it_interval.tv_sec, it.it_interval.tv_nsec);
	sb_puts(s->o, ", it_value=");
	pr_ts_fields(s, it.it_value.tv_sec, it.it_value.tv_nsec);
	sb_putc(s->o, '}');
}

void ps_itimerval(struct st *s, int phase, uint64_t addr)
{
	struct itimerval it;

	if (!st_fetch(s, phase, addr, &it, sizeof(it)))
		return;
	sb_printf(s->o, "{it_interval={tv_sec=%lld, tv_usec=%lld}, it_value={tv_sec=%lld, tv_usec=%lld}}",
		  (long long)it.it_interval.tv_sec,
		  (long long)it.it_interval.tv_usec,
		  (long long)it.it_value.tv_sec, (long long)it.it_value.tv_usec);
}

/* makedev(0xfe, 0): strace prints both numbers with %#x. */
static void pr_dev(struct st *s, unsigned int maj, unsigned int min)
{
	sb_printf(s->o, "makedev(%#x, %#x)", maj, min);
}

static void pr_stat_time(struct st *s, const char *name, int64_t sec,
			 int64_t nsec)
{
	sb_printf(s->o, ", st_%s=%lld", name, (long long)sec);
	pr_time_t_comment(s, sec, nsec);
	sb_printf(s->o, ", st_%s_nsec=%lld", name, (long long)nsec);
}

void ps_stat(struct st *s, int phase, uint64_t addr)
{
	struct stat b;
	int dev;

	if (!st_fetch(s, phase, addr, &b, sizeof(b)))
		return;
	dev = S_ISCHR(b.st_mode) || S_ISBLK(b.st_mode);
	sb_putc(s->o, '{');
	if (s->opt->verbose) {
		sb_puts(s->o, "st_dev=");
		pr_dev(s, major(b.st_dev), minor(b.st_dev));
		sb_printf(s->o, ", st_ino=%llu, st_mode=",
			  (unsigned long long)b.st_ino);
	} else {
		sb_puts(s->o, "st_mode=");
	}
	pr_mode_t(s, b.st_mode);
	if (s->opt->verbose)
		sb_printf(s->o, ", st_nlink=%llu, st_uid=%u, st_gid=%u, st_blksize=%lld, st_blocks=%lld",
			  (unsigned long long)b.st_nlink, b.st_uid, b.st_gid,
			  (long long)b.st_blksize, (long long)b.st_blocks);
	if (dev) {
		sb_puts(s->o, ", st_rdev=");
		pr_dev(s, major(b.st_rdev), minor(b.st_rdev));
	} else {
		sb_printf(s->o, ", st_size=%lld", (long long)b.st_size);
	}
	if (!s->opt->verbose) {
		sb_puts(s->o, ", ...}");
		return;
	}
	pr_stat_time(s, "atime", b.st_atim.tv_sec, b.st_atim.tv_nsec);
	pr_stat_time(s, "mtime", b.st_mtim.tv_sec, b.st_mtim.tv_nsec);
	pr_stat_time(s, "ctime", b.st_ctim.tv_sec, b.st_ctim.tv_nsec);
	sb_putc(s->o, '}');
}

static void pr_statx_ts(struct st *s, const char *name,
			const struct statx_timestamp *t)
{
	sb_printf(s->o, ", %s={tv_sec=%lld, tv_nsec=%u}", name,
		  (long long)t->tv_sec, t->tv_nsec);
	pr_time_t_comment(s, t->tv_sec, t->tv_nsec);
}

void ps_statx(struct st *s, int phase, uint64_t addr)
{
	struct statx b;

	if (!st_fetch(s, phase, addr, &b, sizeof(b)))
		return;
	sb_puts(s->o, "{stx_mask=");
	pr_flags(s, &x_statx_mask, b.stx_mask, "STATX_???");
	if (s->opt->verbose)
		sb_printf(s->o, ", stx_blksize=%u", b.stx_blksize);
	sb_puts(s->o, ", stx_attributes=");
	pr_flags(s, &x_statx_attrs, b.stx_attributes, "STATX_ATTR_???");
	if (s->opt->verbose)
		sb_printf(s->o, ", stx_nlink=%u, stx_uid=%u, stx_gid=%u",
			  b.stx_nlink, b.stx_uid, b.stx_gid);
	sb_puts(s->o, ", stx_mode=");
	pr_mode_t(s, b.stx_mode);
	if (s->opt->verbose)
		sb_printf(s->o, ", stx_ino=%llu", (unsigned long long)b.stx_ino);
	sb_printf(s->o, ", stx_size=%llu", (unsigned long long)b.stx_size);
	if (!s->opt->verbose) {
		sb_puts(s->o, ", ...}");
		return;
	}
	sb_printf(s->o, ", stx_blocks=%llu, stx_attributes_mask=",
		  (unsigned long long)b.stx_blocks);
	pr_flags(s, &x_statx_attrs, b.stx_attributes_mask, "STATX_ATTR_???");
	pr_statx_ts(s, "stx_atime", &b.stx_atime);
	pr_statx_ts(s, "stx_btime", &b.stx_btime);
	pr_statx_ts(s, "stx_ctime", &b.stx_ctime);
	pr_statx_ts(s, "stx_mtime", &b.stx_mtime);
	sb_printf(s->o, ", stx_rdev_major=%u, stx_rdev_minor=%u, stx_dev_major=%u, stx_dev_minor=%u",
		  b.stx_rdev_major, b.stx_rdev_minor, b.stx_dev_major,
		  b.stx_dev_minor);
	/* glibc's struct statx predates stx_mnt_id: the kernel puts it
	 * right after stx_dev_minor, 8-byte aligned (offset 0x90). */
	uint64_t mnt_id;
	memcpy(&mnt_id, (const char *)&b + 0x90, sizeof(mnt_id));
	sb_printf(s->o, ", stx_mnt_id=%#llx}", (unsigned long long)mnt_id);
}

void ps_statfs(struct st *s, int phase, uint64_t addr)
{
	struct statfs b;
	int32_t fsid[2];

	if (!st_fetch(s, phase, addr, &b, sizeof(b)))
		return;
	memcpy(fsid, &b.f_fsid, sizeof(fsid));
	sb_puts(s->o, "{f_type=");
	pr_xval(s, &x_fsmagic, (uint64_t)b.f_type, NULL);
	sb_printf(s->o, ", f_bsize=%lld, f_blocks=%llu, f_bfree=%llu, f_bavail=%llu, f_files=%llu, f_ffree=%llu, f_fsid={val=[%#x, %#x]}, f_namelen=%lld, f_frsize=%lld, f_flags=",
		  (long long)b.f_bsize,
		  (unsigned long long)b.f_blocks, (unsigned long long)b.f_bfree,
		  (unsigned long long)b.f_bavail, (unsigned long long)b.f_files,
		  (unsigned long long)b.f_ffree, (unsigned)fsid[0],
		  (unsigned)fsid[1], (long long)b.f_namelen,
		  (long long)b.f_frsize);
	pr_flags(s, &x_statfs_flags, (uint64_t)b.f_flags, "ST_???");
	sb_putc(s->o, '}');
}

/* 8192*1024: strace shows limits divisible by 1 KiB that way. */
static void pr_rlim(struct st *s, uint64_t v, const char *inf)
{
	if (v == UINT64_MAX)
		sb_puts(s->o, inf);
	else if (v > 1024 && v % 1024 == 0)
		sb_printf(s->o, "%llu*1024", (unsigned long long)(v / 1024));
	else
		sb_printf(s->o, "%llu", (unsigned long long)v);
}

void ps_rlimit(struct st *s, int phase, uint64_t addr)
{
	uint64_t r[2];
	const char *inf = s->sc->nr == 302 ? "RLIM64_INFINITY" : "RLIM_INFINITY";

	if (!st_fetch(s, phase, addr, r, sizeof(r)))
		return;
	sb_puts(s->o, "{rlim_cur=");
	pr_rlim(s, r[0], inf);
	sb_puts(s->o, ", rlim_max=");
	pr_rlim(s, r[1], inf);
	sb_putc(s->o, '}');
}

void ps_rusage(struct st *s, int phase, uint64_t addr)
{
	struct rusage r;

	if (!st_fetch(s, phase, addr, &r, sizeof(r)))
		return;
	sb_printf(s->o, "{ru_utime={tv_sec=%lld, tv_usec=%lld}, ru_stime={tv_sec=%lld, tv_usec=%lld}",
		  (long long)r.ru_utime.tv_sec, (long long)r.ru_utime.tv_usec,
		  (long long)r.ru_stime.tv_sec, (long long)r.ru_stime.tv_usec);
	if (!s->opt->verbose) {
		sb_puts(s->o, ", ...}");
		return;
	}
	sb_printf(s->o, ", ru_maxrss=%ld, ru_ixrss=%ld, ru_idrss=%ld, ru_isrss=%ld, ru_minflt=%ld, ru_majflt=%ld, ru_nswap=%ld, ru_inblock=%ld, ru_oublock=%ld, ru_msgsnd=%ld, ru_msgrcv=%ld, ru_nsignals=%ld, ru_nvcsw=%ld, ru_nivcsw=%ld}",
		  r.ru_maxrss, r.ru_ixrss, r.ru_idrss, r.ru_isrss, r.ru_minflt,
		  r.ru_majflt, r.ru_nswap, r.ru_inblock, r.ru_oublock,
		  r.ru_msgsnd, r.ru_msgrcv, r.ru_nsignals, r.ru_nvcsw,
		  r.ru_nivcsw);
}

static void pr_field_str(struct st *s, const char *name, const char *v,
			 size_t max, int first)
{
	sb_printf(s->o, "%s%s=", first ? "" : ", ", name);
	pr_quoted(s, (const uint8_t *)v, strnlen(v, max), 0, 0, 0);
}

void ps_utsname(struct st *s, int phase, uint64_t addr)
{
	struct utsname u;
	size_t m = sizeof(u.sysname);

	if (!st_fetch(s, phase, addr, &u, sizeof(u)))
		return;
	sb_putc(s->o, '{');
	pr_field_str(s, "sysname", u.sysname, m, 1);
	pr_field_str(s, "nodename", u.nodename, m, 0);
	if (!s->opt->verbose) {
		sb_puts(s->o, ", ...}");
		return;
	}
	pr_field_str(s, "release", u.release, m, 0);
	pr_field_str(s, "version", u.version, m, 0);
	pr_field_str(s, "machine", u.machine, m, 0);
	pr_field_str(s, "domainname", u.domainname, m, 0);
	sb_putc(s->o, '}');
}

void ps_sysinfo(struct st *s, int phase, uint64_t addr)
{
	struct sysinfo i;

	if (!st_fetch(s, phase, addr, &i, sizeof(i)))
		return;
	sb_printf(s->o, "{uptime=%ld, loads=[%lu, %lu, %lu], totalram=%lu, freeram=%lu, sharedram=%lu, bufferram=%lu, totalswap=%lu, freeswap=%lu, procs=%u, totalhigh=%lu, freehigh=%lu, mem_unit=%u}",
		  i.uptime, i.loads[0], i.loads[1], i.loads[2], i.totalram,
		  i.freeram, i.sharedram, i.bufferram, i.totalswap, i.freeswap,
		  i.procs, i.totalhigh, i.freehigh, i.mem_unit);
}

void ps_tms(struct st *s, int phase, uint64_t addr)
{
	struct tms t;

	if (st_fetch(s, phase, addr, &t, sizeof(t)))
		sb_printf(s->o, "{tms_utime=%ld, tms_stime=%ld, tms_cutime=%ld, tms_cstime=%ld}",
			  t.tms_utime, t.tms_stime, t.tms_cutime, t.tms_cstime);
}

void ps_int(struct st *s, int phase, uint64_t addr)
{
	int v;

	if (st_fetch(s, phase, addr, &v, sizeof(v)))
		sb_printf(s->o, "[%d]", v);
}

void ps_uint(struct st *s, int phase, uint64_t addr)
{
	unsigned int v;

	if (st_fetch(s, phase, addr, &v, sizeof(v)))
		sb_printf(s->o, "[%u]", v);
}

void ps_ulong(struct st *s, int phase, uint64_t addr)
{
	unsigned long v;

	if (st_fetch(s, phase, addr, &v, sizeof(v)))
		sb_printf(s->o, "[%lu]", v);
}

void ps_off(struct st *s, int phase, uint64_t addr)
{
	long long v;

	if (st_fetch(s, phase, addr, &v, sizeof(v)))
		sb_printf(s->o, "[%lld]", v);
}

void ps_fdpair(struct st *s, int phase, uint64_t addr)
{
	int v[2];

	if (!st_fetch(s, phase, addr, v, sizeof(v)))
		return;
	sb_putc(s->o, '[');
	pr_fd(s, v[0]);
	sb_puts(s->o, ", ");
	pr_fd(s, v[1]);
	sb_putc(s->o, ']');
}

void ps_sched_param(struct st *s, int phase, uint64_t addr)
{
	int v;

	if (st_fetch(s, phase, addr, &v, sizeof(v)))
		sb_printf(s->o, "[{sched_priority=%d}]", v);
}

void ps_utimbuf(struct st *s, int phase, uint64_t addr)
{
	int64_t t[2];

	if (!st_fetch(s, phase, addr, t, sizeof(t)))
		return;
	sb_printf(s->o, "{actime=%lld", (long long)t[0]);
	pr_time_t_comment(s, t[0], 0);
	sb_printf(s->o, ", modtime=%lld", (long long)t[1]);
	pr_time_t_comment(s, t[1], 0);
	sb_putc(s->o, '}');
}

void ps_timezone(struct st *s, int phase, uint64_t addr)
{
	int v[2];

	if (st_fetch(s, phase, addr, v, sizeof(v)))
		sb_printf(s->o, "{tz_minuteswest=%d, tz_dsttime=%d}", v[0], v[1]);
}

void ps_stack_t(struct st *s, int phase, uint64_t addr)
{
	stack_t ss;

	if (!st_fetch(s, phase, addr, &ss, sizeof(ss)))
		return;
	sb_puts(s->o, "{ss_sp=");
	pr_addr(s, (uint64_t)(uintptr_t)ss.ss_sp);
	sb_puts(s->o, ", ss_flags=");
	if (ss.ss_flags == SS_ONSTACK)
		sb_puts(s->o, "SS_ONSTACK");
	else if (ss.ss_flags == SS_DISABLE)
		sb_puts(s->o, "SS_DISABLE");
	else
		sb_printf(s->o, "%#x", (unsigned)ss.ss_flags);
	sb_printf(s->o, ", ss_size=%zu}", ss.ss_size);
}

/* [{WIFEXITED(s) && WEXITSTATUS(s) == 3}] */
static void pr_status(struct st *s, int v)
{
	char buf[16];
	const char *n;

	sb_puts(s->o, "[{");
	if (WIFEXITED(v)) {
		sb_printf(s->o, "WIFEXITED(s) && WEXITSTATUS(s) == %d", WEXITSTATUS(v));
	} else if (WIFSIGNALED(v)) {
		n = st_signame(WTERMSIG(v), buf, sizeof(buf));
		sb_puts(s->o, "WIFSIGNALED(s) && WTERMSIG(s) == ");
		if (n)
			sb_puts(s->o, n);
		else
			sb_printf(s->o, "%d", WTERMSIG(v));
		if (WCOREDUMP(v))
			sb_puts(s->o, " && WCOREDUMP(s)");
	} else if (WIFSTOPPED(v)) {
		n = st_signame(WSTOPSIG(v), buf, sizeof(buf));
		sb_puts(s->o, "WIFSTOPPED(s) && WSTOPSIG(s) == ");
		if (n)
			sb_puts(s->o, n);
		else
			sb_printf(s->o, "%d", WSTOPSIG(v));
	} else if (WIFCONTINUED(v)) {
		sb_puts(s->o, "WIFCONTINUED(s)");
	} else {
		sb_printf(s->o, "%#x", (unsigned)v);
	}
	sb_puts(s->o, "}]");
}

void ps_wait_status(struct st *s, int phase, uint64_t addr)
{
	int v;

	if (st_fetch(s, phase, addr, &v, sizeof(v)))
		pr_status(s, v);
}

/* The fields strace prints for this signal and code: src/decode/siginfo.c,
 * shared with the signal-delivery lines. */
void ps_siginfo(struct st *s, int phase, uint64_t addr)
{
	struct sonde_siginfo si;
	char buf[256];

	if (!st_fetch(s, phase, addr, &si, sizeof(si)))
		return;
	if (!si.signo) {
		sb_puts(s->o, "{}");
		return;
	}
	sonde_siginfo_format(buf, sizeof(buf), &si);
	sb_puts(s->o, buf);
}

/* [0 1]: the CPUs in a cpu_set_t of len bytes. */
void ps_cpuset(struct st *s, int phase, uint64_t addr, uint64_t len)
{
	uint8_t b[128];
	size_t n;
	int first = 1;

	n = len < sizeof(b) ? (size_t)len : sizeof(b);
	if (!st_fetch(s, phase, addr, b, n))
		return;
	sb_putc(s->o, '[');
	for (size_t i = 0; i < n * 8; i++) {
		if (!(b[i / 8] & (1u << (i % 8))))
			continue;
		sb_printf(s->o, first ? "%zu" : " %zu", i);
		first = 0;
	}
	sb_putc(s->o, ']');
}

void ps_open_how(struct st *s, int phase, uint64_t addr, uint64_t size)
{
	uint64_t h[3];

	if (size < sizeof(h)) {
		pr_addr(s, addr);
		return;
	}
	if (!st_fetch(s, phase, addr, h, sizeof(h)))
		return;
	sb_puts(s->o, "{flags=");
	pr_open_flags(s, h[0]);
	if (h[0] & (O_CREAT | 020000000)) {
		sb_puts(s->o, ", mode=");
		pr_oct(s, h[1]);
	}
	sb_puts(s->o, ", resolve=");
	pr_flags(s, &x_resolve, h[2], "RESOLVE_???");
	sb_putc(s->o, '}');
}
