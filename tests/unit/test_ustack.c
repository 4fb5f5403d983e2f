// SPDX-License-Identifier: GPL-2.0
/*
 * src/stack/: the address spaces the image records describe, frame names
 * by strace 6.1's (libunwind's) rules, and an offline unwind of this very
 * test's stack, copied as record --user-stack copies a traced call's.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/types.h>
#include <sonde/events.h>
#include <sonde/analysis.h>
#include <sonde/payload.h>
#include <sonde/stack.h>

#include "check.h"
#include "stack/stack_int.h"

#define TGID 4242

/* An IMAGE record of path (components leaf first, as the kernel side
 * writes them); buf holds at least 8 KiB. */
static const struct sonde_hdr *image(void *buf, uint32_t tgid, uint64_t start, uint64_t end,
				     uint64_t pgoff, uint16_t flags, const char *path)
{
	struct sonde_ev_image *e = buf;
	int n;

	memset(buf, 0, sizeof(*e) + strlen(path) + 16);
	n = sonde_path_to_components(path, (char *)(e + 1), SONDE_IMAGE_PATH_MAX);
	e->hdr.type = SONDE_REC_IMAGE;
	e->hdr.pid = e->hdr.tid = tgid;
	e->hdr.flags = flags;
	e->hdr.size = (uint16_t)SONDE_REC_ALIGN(sizeof(*e) + (size_t)(n > 0 ? n : 0) + 1);
	e->start = start;
	e->end = end;
	e->pgoff = pgoff;
	e->path_len = (uint16_t)(n > 0 ? n : 0);
	return &e->hdr;
}

static const struct sonde_hdr *fork_rec(void *buf, uint32_t parent, uint32_t child)
{
	struct sonde_ev_fork *f = buf;

	memset(f, 0, sizeof(*f));
	f->hdr.type = SONDE_REC_FORK;
	f->hdr.size = sizeof(*f);
	f->hdr.pid = f->hdr.tid = parent;
	f->child_pid = f->child_tid = child;
	return &f->hdr;
}

TEST(address_spaces)
{
	struct sonde_ustack *u = sonde_ustack_new();
	uint64_t buf[1024];
	const struct ustk_img *m;
	struct ustk_proc *p;

	CHECK(u != NULL);
	if (!u)
		return;
	/* exec: the program; ld.so's reservation, then a segment over it */
	CHECK(!sonde_ustack_record(u, image(buf, TGID, 0x1000, 0x3000, 0,
					    SONDE_IMAGE_EXEC | SONDE_IMAGE_X, "/usr/bin/prog")));
	CHECK(!sonde_ustack_record(u, image(buf, TGID, 0x10000, 0x20000, 0, 0, "/lib/libx.so")));
	CHECK(!sonde_ustack_record(
		u, image(buf, TGID, 0x12000, 0x14000, 0x2000, SONDE_IMAGE_X, "/lib/libx.so")));
	p = ustk_proc_find(u, TGID);
	CHECK(p && p->nimg == 3);
	if (!p)
		goto out;
	m = ustk_img_at(p, 0x12345, 1);
	CHECK(m && m->pgoff == 0x2000 && !strcmp(m->path, "/lib/libx.so"));
	/* strace names frames in executable mappings only */
	CHECK(ustk_img_at(p, 0x11000, 1) == NULL);
	CHECK(ustk_img_at(p, 0x11000, 0) != NULL);
	CHECK(ustk_img_at(p, 0x1800, 1) != NULL);
	/* a mapping covering others replaces them (MAP_FIXED, reuse) */
	CHECK(!sonde_ustack_record(
		u, image(buf, TGID, 0x10000, 0x30000, 0, SONDE_IMAGE_X, "/lib/liby.so")));
	CHECK(p->nimg == 2);
	m = ustk_img_at(p, 0x12345, 1);
	CHECK(m && !strcmp(m->path, "/lib/liby.so"));
	/* fork: the child starts with the parent's; a thread shares them */
	CHECK(!sonde_ustack_record(u, fork_rec(buf, TGID, TGID + 1)));
	p = ustk_proc_find(u, TGID + 1);
	CHECK(p && p->nimg == 2);
	/* exec: a new space; the old one kept for the execve's own stack */
	CHECK(!sonde_ustack_record(u, image(buf, TGID + 1, 0x5000, 0x6000, 0,
					    SONDE_IMAGE_EXEC | SONDE_IMAGE_X, "/usr/bin/other")));
	p = ustk_proc_find(u, TGID + 1);
	CHECK(p && p->nimg == 1 && p->before && p->before->nimg == 2);
	/* a cut path is no use: ignored */
	CHECK(!sonde_ustack_record(u, image(buf, TGID + 1, 0x7000, 0x8000, 0,
					    SONDE_IMAGE_TRUNC | SONDE_IMAGE_X, "/a/b")));
	CHECK(p && p->nimg == 1);
out:
	sonde_ustack_free(u);
}

/* The mapping of this test's own binary holding addr (/proc/self/maps). */
static int self_mapping(uint64_t addr, struct ustk_img *m, char *path, size_t len)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4608];
	int found = -1;

	if (!f)
		return -1;
	while (found && fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		char perms[8];
		int pos = 0;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &s, &e, perms, &off, &pos) < 4 ||
		    addr < s || addr >= e || !pos || line[pos] != '/')
			continue;
		line[strcspn(line, "\n")] = 0;
		snprintf(path, len, "%s", line + pos);
		*m = (struct ustk_img){ s, e, off, perms[2] == 'x', path };
		found = 0;
	}
	fclose(f);
	return found;
}

__attribute__((noinline)) int ustack_probe_fn(int x)
{
	return x * 3 + 1;
}

TEST(frame_names)
{
	struct sonde_ustack *u = sonde_ustack_new();
	uint64_t a = (uint64_t)(uintptr_t)&ustack_probe_fn;
	const char *name = NULL;
	struct ustk_img m;
	char path[4096];
	uint64_t off = 0;

	CHECK(u && !self_mapping(a, &m, path, sizeof(path)));
	if (!u || self_mapping(a, &m, path, sizeof(path)))
		goto out;
	CHECK(!ustk_sym_name(u, &m, a + 3, &name, &off));
	CHECK_EQ_STR(name, "ustack_probe_fn");
	CHECK_EQ_INT(off, 3);
	/* libunwind's rule: sizes do not bound a symbol; the nearest below
	 * names whatever follows it, up to the next one */
	CHECK(!ustk_sym_name(u, &m, a, &name, &off));
	CHECK_EQ_INT(off, 0);
	/* below the file's first function: nothing at or below it */
	CHECK(ustk_sym_name(u, &m, m.start - 0x100000, &name, &off) != 0);
out:
	sonde_ustack_free(u);
}

struct frames {
	int n, probe, test_main;
	const char *error;
};

static int on_frame(void *ctx, const struct sonde_frame *f)
{
	struct frames *fr = ctx;

	if (f->error) {
		fr->error = f->error;
		return 0;
	}
	fr->n++;
	/* unwind_me, or a clone of it (unwind_me.constprop.0) */
	fr->probe |= f->symbol && !strncmp(f->symbol, "unwind_me", 9);
	fr->test_main |= f->symbol && !strcmp(f->symbol, "main");
	return 0;
}

/* Every file mapping of this process, as record --user-stack -p writes
 * them (rec_maps.c). */
static void feed_maps(struct sonde_ustack *u, uint32_t tgid)
{
	FILE *f = fopen("/proc/self/maps", "r");
	static uint64_t buf[1024];
	char line[4608];

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		char perms[8];
		int pos = 0;

		line[strcspn(line, "\n")] = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &s, &e, perms, &off, &pos) < 4 ||
		    !pos || line[pos] != '/' || strlen(line + pos) > 4000)
			continue;
		sonde_ustack_record(u, image(buf, tgid, s, e, off,
					     perms[2] == 'x' ? SONDE_IMAGE_X : 0, line + pos));
	}
	if (f)
		fclose(f);
}

/* The end of the stack mapping holding sp. */
static uint64_t stack_end(uint64_t sp)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long long s, e;
	char line[4608];
	uint64_t end = 0;

	while (f && !end && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx-%llx", &s, &e) == 2 && sp >= s && sp < e)
			end = e;
	if (f)
		fclose(f);
	return end;
}

/* Not instrumented: the copy reads whole frames, ASan's redzones too. */
__attribute__((no_sanitize_address)) static void copy_stack(uint8_t *dst, uint64_t sp, size_t n)
{
	volatile const uint8_t *s = (const uint8_t *)(uintptr_t)sp;

	for (size_t i = 0; i < n; i++)
		dst[i] = s[i];
}

/*
 * The registers a syscall would leave: rsp, rbp and rip here, the
 * callee-saved ones as they are; then the stack from rsp up.
 */
__attribute__((noinline, no_sanitize_address)) static size_t unwind_me(uint64_t *regs,
								       uint8_t *stack, size_t cap)
{
	uint64_t end;
	size_t n;

	memset(regs, 0, SONDE_UREGS_N * sizeof(*regs));
	__asm__ volatile("mov %%rbx, %0" : "=m"(regs[3]));
	__asm__ volatile("mov %%rbp, %0" : "=m"(regs[6]));
	__asm__ volatile("mov %%rsp, %0" : "=m"(regs[7]));
	__asm__ volatile("mov %%r12, %0" : "=m"(regs[12]));
	__asm__ volatile("mov %%r13, %0" : "=m"(regs[13]));
	__asm__ volatile("mov %%r14, %0" : "=m"(regs[14]));
	__asm__ volatile("mov %%r15, %0" : "=m"(regs[15]));
	__asm__ volatile("lea 0(%%rip), %0" : "=r"(regs[16]));
	end = stack_end(regs[7]);
	n = end > regs[7] ? end - regs[7] : 0;
	if (n > cap)
		n = cap;
	copy_stack(stack, regs[7], n);
	return n;
}

TEST(unwinds_a_copied_stack)
{
	static uint8_t stack[SONDE_USTACK_DEFAULT];
	struct sonde_ustack *u = sonde_ustack_new();
	uint64_t regs[SONDE_UREGS_N];
	struct sonde_payload pl[2];
	struct frames fr = { 0 };
	size_t n;

	CHECK(u != NULL);
	if (!u)
		return;
	n = unwind_me(regs, stack, sizeof(stack));
	CHECK(n > 0);
	feed_maps(u, (uint32_t)getpid());
	pl[0] = (struct sonde_payload){ .addr = regs[7],
					.data = (const uint8_t *)regs,
					.captured = sizeof(regs),
					.phase = SONDE_PL_REGS };
	pl[1] = (struct sonde_payload){ .addr = regs[7],
					.data = stack,
					.requested = (uint32_t)n,
					.captured = (uint32_t)n,
					.phase = SONDE_PL_STACK };
	CHECK(sonde_pl_has_stack(pl, 2));
	CHECK_EQ_INT(sonde_ustack_unwind(u, (uint32_t)getpid(), (uint32_t)getpid(), pl, 2,
					 SONDE_USTACK_EXIT, on_frame, &fr),
		     0);
	/* unwind_me, this test, main, libc's start code, _start */
	CHECK(fr.n >= 4);
	CHECK(fr.probe);
	CHECK(fr.test_main);
	CHECK(fr.error == NULL);
	if (fr.error)
		fprintf(stderr, "unwind error: %s\n", fr.error);
	/* no registers: said so, as the walk's one line */
	fr = (struct frames){ 0 };
	CHECK_EQ_INT(sonde_ustack_unwind(u, (uint32_t)getpid(), (uint32_t)getpid(), pl + 1, 1,
					 SONDE_USTACK_EXIT, on_frame, &fr),
		     1);
	pl[0].captured = 8; /* regs of the wrong size (a hostile trace) */
	fr = (struct frames){ 0 };
	CHECK_EQ_INT(sonde_ustack_unwind(u, (uint32_t)getpid(), (uint32_t)getpid(), pl, 2,
					 SONDE_USTACK_EXIT, on_frame, &fr),
		     0);
	CHECK(fr.n == 0 && fr.error != NULL);
	/* a process the trace has no mappings of */
	pl[0].captured = sizeof(regs);
	fr = (struct frames){ 0 };
	CHECK_EQ_INT(sonde_ustack_unwind(u, 1, 1, pl, 2, SONDE_USTACK_EXIT, on_frame, &fr), 0);
	CHECK(fr.n == 0 && fr.error != NULL);
	sonde_ustack_free(u);
}

TEST(hostile_paths)
{
	struct sonde_ustack *u = sonde_ustack_new();
	const char *name;
	struct ustk_img m = { 0x1000, 0x2000, 0, 1, (char *)"/dev/zero" };
	uint64_t off;

	/* a device, a directory, nothing: no names, no hang */
	CHECK(u && ustk_sym_name(u, &m, 0x1100, &name, &off) != 0);
	m.path = (char *)"/";
	CHECK(u && ustk_sym_name(u, &m, 0x1100, &name, &off) != 0);
	m.path = (char *)"/nonexistent/lib.so";
	CHECK(u && ustk_sym_name(u, &m, 0x1100, &name, &off) != 0);
	CHECK(ustk_open_regular("/dev/null") < 0);
	sonde_ustack_free(u);
}

int main(void)
{
	RUN(address_spaces);
	RUN(frame_names);
	RUN(unwinds_a_copied_stack);
	RUN(hostile_paths);
	CHECK_EXIT();
}
