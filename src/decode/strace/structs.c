// SPDX-License-Identifier: GPL-2.0
/*
 * Struct printers for the x86-64 ABI: time, stat/statx/statfs, open_how,
 * pointers to one number; those of process state (resource limits and
 * usage, utsname, sysinfo, wait status, siginfo...) are in
 * structs_proc.c. Each takes
 * the phase (entry or exit memory) and the user address and prints NULL,
 * the address (memory not captured or unreadable), or the decoded struct
 * in strace's field syntax; -v switches from the abridged "..." forms to
 * every field. In JSON every struct is an object with strace's member
 * names (-v is always on there).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <time.h>

#include "decode/strace/strace_int.h"

/* glibc's <sys/stat.h> may not have the newer statx bits yet. */
#ifndef STATX_DIOALIGN
#define STATX_DIOALIGN 0x2000U
#endif

/*
 * " /\* 2026-11-21T09:23:17.339542667+0000 *\/" after a time, in local
 * time; part is the fraction of a second in units of 10^-width. strace
 * has no date for the epoch itself nor for a fraction out of range.
 */
static void pr_time_comment(struct st *s, int64_t sec, uint64_t part, int width)
{
	time_t t = (time_t)sec;
	struct tm tm;
	char d[64], z[16];

	if (s->j || (!sec && !part) || part >= (width == 9 ? 1000000000u : 1000000u) ||
	    !localtime_r(&t, &tm))
		return;
	strftime(d, sizeof(d), "%Y-%m-%dT%H:%M:%S", &tm);
	strftime(z, sizeof(z), "%z", &tm);
	if (part)
		sb_printf(s->o, " /* %s.%0*llu%s */", d, width, (unsigned long long)part, z);
	else
		sb_printf(s->o, " /* %s%s */", d, z);
}

void pr_time_t_comment(struct st *s, int64_t sec, int64_t nsec)
{
	pr_time_comment(s, sec, (uint64_t)nsec, 9);
}

/* {tv_sec=1, tv_nsec=2} or {tv_sec=1, tv_usec=2} */
static void pr_time_pair(struct st *s, const char *frac, int64_t sec, int64_t sub)
{
	st_obj_begin(s);
	st_field(s, "tv_sec");
	pr_long(s, (uint64_t)sec);
	st_field(s, frac);
	pr_ulong(s, (uint64_t)sub);
	st_obj_end(s);
}

void pr_ts_fields(struct st *s, int64_t sec, int64_t nsec)
{
	pr_time_pair(s, "tv_nsec", sec, nsec);
}

void pr_tv_fields(struct st *s, const struct timeval *tv)
{
	pr_time_pair(s, "tv_usec", tv->tv_sec, tv->tv_usec);
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
		pr_tv_fields(s, &tv);
}

/*
 * utimensat's times: UTIME_NOW and UTIME_OMIT replace the struct (-X
 * verbose: follow it as a comment; JSON: name its tv_nsec); other times
 * have their date.
 */
static void pr_utime_ts(struct st *s, const struct timespec *t)
{
	const char *sym = t->tv_nsec == UTIME_NOW ? "UTIME_NOW" :
			  t->tv_nsec == UTIME_OMIT ? "UTIME_OMIT" : NULL;

	if (!sym) {
		pr_ts_fields(s, t->tv_sec, t->tv_nsec);
		pr_time_t_comment(s, t->tv_sec, t->tv_nsec);
	} else if (s->j) {
		st_obj_begin(s);
		pr_long_field(s, "tv_sec", t->tv_sec);
		st_field(s, "tv_nsec");
		pr_sym(s, sym);
		st_obj_end(s);
	} else if (s->opt->xlat == SONDE_XLAT_ABBREV) {
		sb_puts(s->o, sym);
	} else {
		pr_ts_fields(s, t->tv_sec, t->tv_nsec);
		if (s->opt->xlat == SONDE_XLAT_VERBOSE)
			sb_printf(s->o, " /* %s */", sym);
	}
}

void ps_timespec_pair(struct st *s, int phase, uint64_t addr)
{
	struct timespec t[2];

	if (!st_fetch(s, phase, addr, t, sizeof(t)))
		return;
	st_arr_begin(s);
	for (int i = 0; i < 2; i++) {
		st_elem(s);
		pr_utime_ts(s, &t[i]);
	}
	st_arr_end(s);
}

/* utimes' and futimesat's times, with their dates. */
void ps_timeval_pair(struct st *s, int phase, uint64_t addr)
{
	struct timeval t[2];

	if (!st_fetch(s, phase, addr, t, sizeof(t)))
		return;
	st_arr_begin(s);
	for (int i = 0; i < 2; i++) {
		st_elem(s);
		pr_tv_fields(s, &t[i]);
		pr_time_comment(s, t[i].tv_sec, (uint64_t)t[i].tv_usec, 6);
	}
	st_arr_end(s);
}

void ps_itimerspec(struct st *s, int phase, uint64_t addr)
{
	struct itimerspec it;

	if (!st_fetch(s, phase, addr, &it, sizeof(it)))
		return;
	st_obj_begin(s);
	st_field(s, "it_interval");
	pr_ts_fields(s, it.it_interval.tv_sec, it.it_interval.tv_nsec);
	st_field(s, "it_value");
	pr_ts_fields(s, it.it_value.tv_sec, it.it_value.tv_nsec);
	st_obj_end(s);
}

void ps_itimerval(struct st *s, int phase, uint64_t addr)
{
	struct itimerval it;

	if (!st_fetch(s, phase, addr, &it, sizeof(it)))
		return;
	st_obj_begin(s);
	st_field(s, "it_interval");
	pr_tv_fields(s, &it.it_interval);
	st_field(s, "it_value");
	pr_tv_fields(s, &it.it_value);
	st_obj_end(s);
}

/* makedev(0xfe, 0): strace prints both numbers with %#x; JSON
 * {"major":254,"minor":0}. */
void pr_dev(struct st *s, unsigned int maj, unsigned int min)
{
	char num[24], sym[48];

	if (!s->j) {
		snprintf(num, sizeof(num), "%#llx", (unsigned long long)makedev(maj, min));
		snprintf(sym, sizeof(sym), "makedev(%#x, %#x)", maj, min);
		pr_symexpr(s, num, sym);
		return;
	}
	st_obj_begin(s);
	st_field(s, "major");
	pr_uint(s, maj);
	st_field(s, "minor");
	pr_uint(s, min);
	st_obj_end(s);
}

static void pr_stat_time(struct st *s, const char *name, const char *nsname,
			 int64_t sec, int64_t nsec)
{
	st_field(s, name);
	pr_long(s, (uint64_t)sec);
	pr_time_t_comment(s, sec, nsec);
	st_field(s, nsname);
	pr_long(s, (uint64_t)nsec);
}

void ps_stat(struct st *s, int phase, uint64_t addr)
{
	struct stat b;

	/* i386 stat, lstat and fstat, recorded as these (events.h) */
	if (s->sc->hdr.flags & SONDE_SC_COMPAT)
		ps_stat_i386(s, phase, addr);
	else if (st_fetch(s, phase, addr, &b, sizeof(b)))
		pr_stat(s, &b);
}

void pr_stat(struct st *s, const struct stat *p)
{
	struct stat b = *p;
	int dev, v = s->opt->verbose;

	dev = S_ISCHR(b.st_mode) || S_ISBLK(b.st_mode);
	st_obj_begin(s);
	if (v) {
		st_field(s, "st_dev");
		pr_dev(s, major(b.st_dev), minor(b.st_dev));
		st_field(s, "st_ino");
		pr_ulong(s, b.st_ino);
	}
	st_field(s, "st_mode");
	pr_mode_t(s, b.st_mode);
	if (v) {
		st_field(s, "st_nlink");
		pr_ulong(s, b.st_nlink);
		st_field(s, "st_uid");
		pr_uint(s, b.st_uid);
		st_field(s, "st_gid");
		pr_uint(s, b.st_gid);
		st_field(s, "st_blksize");
		pr_long(s, (uint64_t)b.st_blksize);
		st_field(s, "st_blocks");
		pr_long(s, (uint64_t)b.st_blocks);
	}
	if (dev) {
		st_field(s, "st_rdev");
		pr_dev(s, major(b.st_rdev), minor(b.st_rdev));
	} else {
		st_field(s, "st_size");
		pr_long(s, (uint64_t)b.st_size);
	}
	if (!v) {
		st_obj_end_cut(s);
		return;
	}
	pr_stat_time(s, "st_atime", "st_atime_nsec", b.st_atim.tv_sec, b.st_atim.tv_nsec);
	pr_stat_time(s, "st_mtime", "st_mtime_nsec", b.st_mtim.tv_sec, b.st_mtim.tv_nsec);
	pr_stat_time(s, "st_ctime", "st_ctime_nsec", b.st_ctim.tv_sec, b.st_ctim.tv_nsec);
	st_obj_end(s);
}

static void pr_statx_ts(struct st *s, const char *name,
			const struct statx_timestamp *t)
{
	st_field(s, name);
	st_obj_begin(s);
	st_field(s, "tv_sec");
	pr_long(s, (uint64_t)t->tv_sec);
	st_field(s, "tv_nsec");
	pr_uint(s, t->tv_nsec);
	st_obj_end(s);
	pr_time_t_comment(s, t->tv_sec, t->tv_nsec);
}

void pr_u32_field(struct st *s, const char *name, uint32_t v)
{
	st_field(s, name);
	pr_uint(s, v);
}

void pr_int_field(struct st *s, const char *name, int v)
{
	st_field(s, name);
	pr_int(s, (uint64_t)v);
}

void pr_hex_field(struct st *s, const char *name, uint64_t v)
{
	st_field(s, name);
	pr_hex(s, v);
}

/* Fields of a statx timestamp the kernel filled (bit of stx_mask). */
static void pr_statx_ts_if(struct st *s, uint32_t mask, uint32_t bit,
			   const char *name, const struct statx_timestamp *t)
{
	if (mask & bit)
		pr_statx_ts(s, name, t);
}

/*
 * -v's part of struct statx: strace skips what stx_mask says the kernel
 * did not fill (a file system without birth times has no stx_btime).
 */
static void pr_statx_verbose_tail(struct st *s, const struct statx *b)
{
	uint32_t m = b->stx_mask;
	uint64_t mnt_id;
	uint32_t dio[2];

	if (m & STATX_BLOCKS)
		pr_ulong_field(s, "stx_blocks", b->stx_blocks);
	st_field(s, "stx_attributes_mask");
	pr_flags(s, &x_statx_attrs, b->stx_attributes_mask, "STATX_ATTR_???");
	pr_statx_ts_if(s, m, STATX_ATIME, "stx_atime", &b->stx_atime);
	pr_statx_ts_if(s, m, STATX_BTIME, "stx_btime", &b->stx_btime);
	pr_statx_ts_if(s, m, STATX_CTIME, "stx_ctime", &b->stx_ctime);
	pr_statx_ts_if(s, m, STATX_MTIME, "stx_mtime", &b->stx_mtime);
	pr_u32_field(s, "stx_rdev_major", b->stx_rdev_major);
	pr_u32_field(s, "stx_rdev_minor", b->stx_rdev_minor);
	pr_u32_field(s, "stx_dev_major", b->stx_dev_major);
	pr_u32_field(s, "stx_dev_minor", b->stx_dev_minor);
	/* glibc's struct statx may predate these: the kernel puts
	 * stx_mnt_id right after stx_dev_minor (offset 0x90), then
	 * stx_dio_mem_align and stx_dio_offset_align (0x98). */
	if (m & STATX_MNT_ID) {
		memcpy(&mnt_id, (const char *)b + 0x90, sizeof(mnt_id));
		st_field(s, "stx_mnt_id");
		pr_hex(s, mnt_id);
	}
	if (m & STATX_DIOALIGN) {
		memcpy(dio, (const char *)b + 0x98, sizeof(dio));
		pr_u32_field(s, "stx_dio_mem_align", dio[0]);
		pr_u32_field(s, "stx_dio_offset_align", dio[1]);
	}
}

void ps_statx(struct st *s, int phase, uint64_t addr)
{
	struct statx b;
	int v = s->opt->verbose;

	if (!st_fetch(s, phase, addr, &b, sizeof(b)))
		return;
	st_obj_begin(s);
	st_field(s, "stx_mask");
	pr_flags(s, &x_statx_mask, b.stx_mask, "STATX_???");
	if (v)
		pr_u32_field(s, "stx_blksize", b.stx_blksize);
	st_field(s, "stx_attributes");
	pr_flags(s, &x_statx_attrs, b.stx_attributes, "STATX_ATTR_???");
	if (v && (b.stx_mask & STATX_NLINK))
		pr_u32_field(s, "stx_nlink", b.stx_nlink);
	if (v && (b.stx_mask & STATX_UID))
		pr_u32_field(s, "stx_uid", b.stx_uid);
	if (v && (b.stx_mask & STATX_GID))
		pr_u32_field(s, "stx_gid", b.stx_gid);
	if (b.stx_mask & (STATX_TYPE | STATX_MODE)) {
		st_field(s, "stx_mode");
		pr_mode_t(s, b.stx_mode);
	}
	if (v && (b.stx_mask & STATX_INO))
		pr_ulong_field(s, "stx_ino", b.stx_ino);
	if (b.stx_mask & STATX_SIZE)
		pr_ulong_field(s, "stx_size", b.stx_size);
	if (!v) {
		st_obj_end_cut(s);
		return;
	}
	pr_statx_verbose_tail(s, &b);
	st_obj_end(s);
}

void pr_ulong_field(struct st *s, const char *name, uint64_t v)
{
	st_field(s, name);
	pr_ulong(s, v);
}

void pr_long_field(struct st *s, const char *name, int64_t v)
{
	st_field(s, name);
	pr_long(s, (uint64_t)v);
}

void ps_statfs(struct st *s, int phase, uint64_t addr)
{
	struct statfs b;

	if (st_fetch(s, phase, addr, &b, sizeof(b)))
		pr_statfs(s, &b);
}

void pr_statfs(struct st *s, const struct statfs *p)
{
	struct statfs b = *p;
	int32_t fsid[2];

	memcpy(fsid, &b.f_fsid, sizeof(fsid));
	st_obj_begin(s);
	st_field(s, "f_type");
	pr_xval(s, &x_fsmagic, (uint64_t)b.f_type, NULL);
	pr_long_field(s, "f_bsize", b.f_bsize);
	pr_ulong_field(s, "f_blocks", b.f_blocks);
	pr_ulong_field(s, "f_bfree", b.f_bfree);
	pr_ulong_field(s, "f_bavail", b.f_bavail);
	pr_ulong_field(s, "f_files", b.f_files);
	pr_ulong_field(s, "f_ffree", b.f_ffree);
	st_field(s, "f_fsid");
	st_obj_begin(s);
	st_field(s, "val");
	st_arr_begin(s);
	st_elem(s);
	pr_hex(s, (uint32_t)fsid[0]);
	st_elem(s);
	pr_hex(s, (uint32_t)fsid[1]);
	st_arr_end(s);
	st_obj_end(s);
	pr_long_field(s, "f_namelen", b.f_namelen);
	pr_long_field(s, "f_frsize", b.f_frsize);
	st_field(s, "f_flags");
	pr_flags(s, &x_statfs_flags, (uint64_t)b.f_flags, "ST_???");
	st_obj_end(s);
}

/* Pointers to one number: strace "[5]", JSON the number. */
void ps_int(struct st *s, int phase, uint64_t addr)
{
	int v;

	if (!st_fetch(s, phase, addr, &v, sizeof(v)))
		return;
	if (s->j)
		st_jint(s, v);
	else
		sb_printf(s->o, "[%d]", v);
}

void ps_int_out(struct st *s, uint64_t addr)
{
	st_entry_end(s);
	if (st_ok(s))
		ps_int(s, SONDE_PL_EXIT, addr);
	else
		pr_addr(s, addr);
}

void ps_child(struct st *s, int phase, uint64_t addr)
{
	int v;

	if (!st_fetch(s, phase, addr, &v, sizeof(v)))
		return;
	if (!s->j)
		sb_putc(s->o, '[');
	pr_pid_child(s, (uint64_t)(int64_t)v);
	if (!s->j)
		sb_putc(s->o, ']');
}

void ps_uint(struct st *s, int phase, uint64_t addr)
{
	unsigned int v;

	if (!st_fetch(s, phase, addr, &v, sizeof(v)))
		return;
	if (s->j)
		st_juint(s, v);
	else
		sb_printf(s->o, "[%u]", v);
}

void ps_ulong(struct st *s, int phase, uint64_t addr)
{
	unsigned long v;

	if (!st_fetch(s, phase, addr, &v, sizeof(v)))
		return;
	if (s->j)
		st_juint(s, v);
	else
		sb_printf(s->o, "[%lu]", v);
}

void ps_uptr(struct st *s, int phase, uint64_t addr)
{
	uint64_t v;

	if (!st_fetch(s, phase, addr, &v, sizeof(v)))
		return;
	if (s->j)
		pr_addr(s, v);
	else
		sb_printf(s->o, "[%#llx]", (unsigned long long)v);
}

void ps_off(struct st *s, int phase, uint64_t addr)
{
	long long v;

	if (!st_fetch(s, phase, addr, &v, sizeof(v)))
		return;
	if (s->j)
		st_jint(s, v);
	else
		sb_printf(s->o, "[%lld]", v);
}

void ps_fdpair(struct st *s, int phase, uint64_t addr)
{
	int v[2];

	if (!st_fetch(s, phase, addr, v, sizeof(v)))
		return;
	st_arr_begin(s);
	st_elem(s);
	pr_fd(s, v[0]);
	st_elem(s);
	pr_fd(s, v[1]);
	st_arr_end(s);
}

void ps_utimbuf(struct st *s, int phase, uint64_t addr)
{
	int64_t t[2];

	if (!st_fetch(s, phase, addr, t, sizeof(t)))
		return;
	st_obj_begin(s);
	pr_long_field(s, "actime", t[0]);
	pr_time_t_comment(s, t[0], 0);
	pr_long_field(s, "modtime", t[1]);
	pr_time_t_comment(s, t[1], 0);
	st_obj_end(s);
}

void ps_timezone(struct st *s, int phase, uint64_t addr)
{
	int v[2];

	if (!st_fetch(s, phase, addr, v, sizeof(v)))
		return;
	st_obj_begin(s);
	st_field(s, "tz_minuteswest");
	pr_int(s, (uint64_t)v[0]);
	st_field(s, "tz_dsttime");
	pr_int(s, (uint64_t)v[1]);
	st_obj_end(s);
}

void ps_open_how(struct st *s, int phase, uint64_t addr, uint64_t size)
{
	uint64_t h[3];

	if (size < sizeof(h)) {
		pr_unfetched(s, phase, addr);
		return;
	}
	if (!st_fetch(s, phase, addr, h, sizeof(h)))
		return;
	st_obj_begin(s);
	st_field(s, "flags");
	pr_open_flags(s, h[0]);
	if (h[0] & (O_CREAT | 020000000)) {
		st_field(s, "mode");
		pr_oct(s, h[1]);
	}
	st_field(s, "resolve");
	pr_flags(s, &x_resolve, h[2], "RESOLVE_???");
	st_obj_end(s);
}
