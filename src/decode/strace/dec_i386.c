// SPDX-License-Identifier: GPL-2.0
/*
 * Decoders of the i386 calls (events.h, SONDE_SC_COMPAT) whose arguments
 * or structs differ from their x86-64 counterparts, as strace 6.1 prints
 * them for a 32-bit process: structs read in the i386 layout, 64-bit
 * values passed in two registers joined, mmap2's offset in pages. The
 * calls of the same layout are recorded as their x86-64 twin and need
 * nothing here.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/time.h>

#include "decode/strace/strace_int.h"

static uint32_t get32(const uint8_t *p, size_t off)
{
	uint32_t v;

	memcpy(&v, p + off, sizeof(v));
	return v;
}

static uint64_t get64(const uint8_t *p, size_t off)
{
	uint64_t v;

	memcpy(&v, p + off, sizeof(v));
	return v;
}

/*
 * struct stat64 of the i386 ABI (arch/x86/include/uapi/asm/stat.h), where
 * a long long is 4-byte aligned in a struct, 96 bytes:
 *
 *   0 st_dev(8)  8 pad(4)  12 __st_ino(4)  16 st_mode  20 st_nlink
 *  24 st_uid  28 st_gid  32 st_rdev(8)  40 pad(4)  44 st_size(8)
 *  52 st_blksize  56 st_blocks(8)  64 st_atime  68 st_atime_nsec
 *  72 st_mtime  76 st_mtime_nsec  80 st_ctime  84 st_ctime_nsec
 *  88 st_ino(8)
 */
#define STAT64_I386_SIZE 96

void ps_stat64_i386(struct st *s, int phase, uint64_t addr)
{
	uint8_t r[STAT64_I386_SIZE];
	struct stat b;

	if (!st_fetch(s, phase, addr, r, sizeof(r)))
		return;
	memset(&b, 0, sizeof(b));
	b.st_dev = get64(r, 0);
	b.st_mode = get32(r, 16);
	b.st_nlink = get32(r, 20);
	b.st_uid = get32(r, 24);
	b.st_gid = get32(r, 28);
	b.st_rdev = get64(r, 32);
	b.st_size = (off_t)get64(r, 44);
	b.st_blksize = get32(r, 52);
	b.st_blocks = (blkcnt_t)get64(r, 56);
	b.st_atim.tv_sec = get32(r, 64);
	b.st_atim.tv_nsec = get32(r, 68);
	b.st_mtim.tv_sec = get32(r, 72);
	b.st_mtim.tv_nsec = get32(r, 76);
	b.st_ctim.tv_sec = get32(r, 80);
	b.st_ctim.tv_nsec = get32(r, 84);
	b.st_ino = get64(r, 88);
	pr_stat(s, &b);
}

/*
 * struct stat of the i386 ABI (the kernel's struct compat_stat), 64 bytes:
 *
 *   0 st_dev  4 st_ino  8 st_mode(2)  10 st_nlink(2)  12 st_uid(2)
 *  14 st_gid(2)  16 st_rdev  20 st_size  24 st_blksize  28 st_blocks
 *  32 st_atime  36 st_atime_nsec  40 st_mtime  44 st_mtime_nsec
 *  48 st_ctime  52 st_ctime_nsec  56 unused(8)
 */
void ps_stat_i386(struct st *s, int phase, uint64_t addr)
{
	uint8_t r[64];
	uint16_t h[4];
	struct stat b;

	if (!st_fetch(s, phase, addr, r, sizeof(r)))
		return;
	memcpy(h, r + 8, sizeof(h));
	memset(&b, 0, sizeof(b));
	b.st_dev = get32(r, 0);
	b.st_ino = get32(r, 4);
	b.st_mode = h[0];
	b.st_nlink = h[1];
	b.st_uid = h[2];
	b.st_gid = h[3];
	b.st_rdev = get32(r, 16);
	b.st_size = get32(r, 20);
	b.st_blksize = get32(r, 24);
	b.st_blocks = get32(r, 28);
	b.st_atim.tv_sec = get32(r, 32);
	b.st_atim.tv_nsec = get32(r, 36);
	b.st_mtim.tv_sec = get32(r, 40);
	b.st_mtim.tv_nsec = get32(r, 44);
	b.st_ctim.tv_sec = get32(r, 48);
	b.st_ctim.tv_nsec = get32(r, 52);
	pr_stat(s, &b);
}

/* struct rlimit of 32-bit longs; the i386 RLIM_INFINITY is ~0UL. */
void ps_rlimit_i386(struct st *s, int phase, uint64_t addr)
{
	uint32_t r[2];

	if (st_fetch(s, phase, addr, r, sizeof(r)))
		pr_rlimit(s, (const uint64_t[2]){ r[0], r[1] }, UINT32_MAX);
}

/* struct timespec and struct timeval before the _time64 calls: two
 * 32-bit longs. */
void ps_timespec_i386(struct st *s, int phase, uint64_t addr)
{
	int32_t t[2];

	if (st_fetch(s, phase, addr, t, sizeof(t)))
		pr_ts_fields(s, t[0], t[1]);
}

void ps_timeval_i386(struct st *s, int phase, uint64_t addr)
{
	int32_t t[2];

	if (st_fetch(s, phase, addr, t, sizeof(t)))
		pr_tv_fields(s, &(const struct timeval){ t[0], t[1] });
}

/* stack_t of 32-bit words: ss_sp, ss_flags, ss_size. */
void ps_stack_t_i386(struct st *s, int phase, uint64_t addr)
{
	uint32_t w[3];
	stack_t ss;

	if (!st_fetch(s, phase, addr, w, sizeof(w)))
		return;
	ss.ss_sp = (void *)(uintptr_t)w[0];
	ss.ss_flags = (int)w[1];
	ss.ss_size = w[2];
	pr_stack_t(s, &ss);
}

/*
 * struct statfs64 of the i386 ABI (asm-generic/statfs.h, packed to
 * 4-byte alignment), 84 bytes: f_type and f_bsize 32-bit, five 64-bit
 * counts from offset 8, f_fsid at 48, f_namelen, f_frsize, f_flags at
 * 56, 60, 64, then spare words.
 */
#define STATFS64_I386_SIZE 84

static void ps_statfs64_i386(struct st *s, int phase, uint64_t addr)
{
	uint8_t r[STATFS64_I386_SIZE];
	struct statfs b;

	if (!st_fetch(s, phase, addr, r, sizeof(r)))
		return;
	memset(&b, 0, sizeof(b));
	b.f_type = get32(r, 0);
	b.f_bsize = get32(r, 4);
	b.f_blocks = get64(r, 8);
	b.f_bfree = get64(r, 16);
	b.f_bavail = get64(r, 24);
	b.f_files = get64(r, 32);
	b.f_ffree = get64(r, 40);
	memcpy(&b.f_fsid, r + 48, sizeof(b.f_fsid));
	b.f_namelen = get32(r, 56);
	b.f_frsize = get32(r, 60);
	b.f_flags = get32(r, 64);
	pr_statfs(s, &b);
}

/* statfs64(path, size, buf) and fstatfs64(fd, size, buf): the struct
 * only when size is its size, as the kernel takes it. */
static void pr_statfs64_rest(struct st *s)
{
	uint64_t sz = st_arg(s, 1), a = st_arg(s, 2);

	st_sep(s);
	pr_ulong(s, sz);
	st_sep(s);
	st_entry_end(s);
	if (st_ok(s) && sz == STATFS64_I386_SIZE)
		ps_statfs64_i386(s, SONDE_PL_EXIT, a);
	else
		pr_addr(s, a);
}

void dec_statfs64(struct st *s)
{
	pr_path(s, st_arg(s, 0));
	pr_statfs64_rest(s);
}

void dec_fstatfs64(struct st *s)
{
	pr_fd(s, (int)st_arg(s, 0));
	pr_statfs64_rest(s);
}

/* mmap2's last argument counts 4096-byte pages; strace shows bytes. */
void dec_mmap2(struct st *s)
{
	pr_mmap(s, st_arg(s, 5) << 12);
}

/* A 64-bit offset passed as two 32-bit registers, high word first. */
static int64_t off_hi_lo(struct st *s, int hi, int lo)
{
	return (int64_t)((uint64_t)(uint32_t)st_arg(s, hi) << 32 | (uint32_t)st_arg(s, lo));
}

/* _llseek(fd, offset_high, offset_low, loff_t *result, whence):
 * _llseek(3, 0, [16], SEEK_CUR), the result read back at exit. */
void dec_llseek(struct st *s)
{
	uint64_t res = st_arg(s, 3);

	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	pr_long(s, (uint64_t)off_hi_lo(s, 1, 2));
	st_sep(s);
	st_entry_end(s);
	if (st_ok(s))
		ps_off(s, SONDE_PL_EXIT, res);
	else
		pr_addr(s, res);
	st_sep(s);
	pr_xval(s, &x_seek, (uint32_t)st_arg(s, 4), "SEEK_???");
}

/* pread64/pwrite64(fd, buf, count, offset_low, offset_high). */
static void pr_pio(struct st *s, uint8_t kind)
{
	const struct st_arg a = { .kind = kind, .aux = 2 };

	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	if (kind == K_BUFO)
		st_entry_end(s);
	st_print_arg(s, &a, 1);
	st_sep(s);
	pr_ulong(s, st_arg(s, 2));
	st_sep(s);
	pr_long(s, (uint64_t)off_hi_lo(s, 4, 3));
}

void dec_pread64_i386(struct st *s)
{
	pr_pio(s, K_BUFO);
}

void dec_pwrite64_i386(struct st *s)
{
	pr_pio(s, K_BUFI);
}

/*
 * fcntl64: the commands of fcntl, and the i386 lock commands whose struct
 * flock64 is laid out for 4-byte alignment (F_GETLK64 12, F_SETLK64 13,
 * F_SETLKW64 14) and the 32-bit struct flock of F_GETLK/F_SETLK/F_SETLKW:
 * their struct is not decoded (docs/strace-differences.md), its address
 * is shown.
 */
static const char *const lock64_names[] = { "F_GETLK64", "F_SETLK64", "F_SETLKW64" };

void dec_fcntl64(struct st *s)
{
	uint32_t cmd = (uint32_t)st_arg(s, 1);

	if (cmd != F_GETLK && cmd != F_SETLK && cmd != F_SETLKW && (cmd < 12 || cmd > 14)) {
		dec_fcntl(s);
		return;
	}
	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	if (cmd >= 12) {
		char num[16];

		snprintf(num, sizeof(num), "%#x", cmd);
		pr_symexpr(s, num, lock64_names[cmd - 12]);
	} else {
		pr_xval(s, &x_fcntl_cmd, cmd, "F_???");
	}
	st_sep(s);
	pr_addr(s, st_arg(s, 2));
}
