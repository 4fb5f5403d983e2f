// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the sonde language compiler that need no BPF loading:
 * ABI tables against BTF, spilling register allocation, diagnostics. */
#include <bpf/btf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lang/lang.h"
#include "lang/printf.h"
#include "lang/types.h"

/* The x86-64 struct pt_regs offsets hard-coded in the syscall, uprobe
 * and profile providers must match the kernel's BTF. */
TEST(ptregs_offsets_match_btf)
{
	static const struct {
		const char *f;
		int off;
	} regs[] = { { "di", 112 },	 { "si", 104 }, { "dx", 96 }, { "r10", 56 },
		     { "r8", 72 },	 { "r9", 64 },	{ "cx", 88 }, { "ax", 80 },
		     { "orig_ax", 120 }, { "ip", 128 }, { "cs", 136 } };
	char err[256];

	CHECK(lbtf_load(err, sizeof(err)) == 0);
	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
		CHECK_EQ_INT(lbtf_offsetof("pt_regs", regs[i].f), regs[i].off);
	lbtf_free();
	types_free();
}

static int compiles(const char *src, char *err, size_t len)
{
	return lang_check(src, err, len) == 0;
}

/* More simultaneously live values than registers: the allocator spills. */
TEST(spills_when_registers_run_out)
{
	char err[512] = "";

	CHECK(compiles(
		"BEGIN { a = 1; b = 2; c = 3; d = 4; e = 5; f = 6; g = 7; h = 8; i = 9; j = 10;"
		" x = (a + (b + (c + (d + (e + (f + (g + (h + (i + (j + pid))))))))));"
		" y = ((a * b) + (c * d)) * ((e * f) + (g * h)) + ((i * j) * (timestamp + cpu)); }",
		err, sizeof(err)));
	CHECK_EQ_STR(err, "");
}

TEST(diagnostics_are_located)
{
	char err[512];

	CHECK(!compiles("BEGIN { x = ; }", err, sizeof(err)));
	CHECK_EQ_STR(err, "1:13: expected an expression, found ';'");
	CHECK(!compiles("BEGIN\n{\n\ty = \"s\" + 1;\n}", err, sizeof(err)));
	CHECK(!strncmp(err, "3:10: operator '+' cannot take", 30));
	CHECK(!compiles("nosuch:::probe { }", err, sizeof(err)));
	CHECK(strstr(err, "does not match any probe") != NULL);
}

/* "BEGIN { x = " HEAD*n "1" TAIL*n "; }" */
static char *nested_src(const char *head, const char *tail, int n)
{
	size_t hl = strlen(head), tl = strlen(tail);
	char *s = malloc(n * (hl + tl) + 32), *p = s;

	p += sprintf(p, "BEGIN { x = ");
	for (int i = 0; i < n; i++, p += hl)
		memcpy(p, head, hl);
	*p++ = '1';
	for (int i = 0; i < n; i++, p += tl)
		memcpy(p, tail, tl);
	strcpy(p, "; }");
	return s;
}

/* Deep input fails with its location instead of overflowing the stack of
 * the recursive parser or type checker. */
TEST(deep_nesting_is_refused)
{
	static const struct {
		const char *head, *tail, *err;
		int n;
	} cases[] = {
		{ "(", ")", "1:1012: nested too deeply: more than 1000 levels", 30000 },
		{ "!", "", "1:1012: nested too deeply: more than 1000 levels", 100000 },
		{ "", "+1", "1:198014: expression nested too deeply: more than 1000 levels",
		  100000 },
		{ "(", ")", "", 900 },
	};
	char err[512];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *src = nested_src(cases[i].head, cases[i].tail, cases[i].n);

		err[0] = 0;
		CHECK_EQ_INT(compiles(src, err, sizeof(err)), !cases[i].err[0]);
		CHECK_EQ_STR(err, cases[i].err);
		free(src);
	}
}

TEST(every_feature_type_checks)
{
	char err[512] = "";

	CHECK(compiles(
		"syscall::read:entry /pid == 1 && execname != \"x\"/ {"
		" self->t = timestamp; a[probefunc, tid] = arg0; this->s = strjoin(execname, "
		"\"!\");"
		" @c[execname] = count(); @q = quantize(arg2); @l = lquantize(arg2, 0, 100, 10);"
		" @ll = llquantize(arg2, 10, 0, 4, 10); @s = stddev(arg2); @m = min(arg0);"
		" printf(\"%s %d %x %-8s\\n\", basename(this->s), strlen(this->s), arg1, "
		"probefunc); }"
		" syscall::read:return /self->t/ { @d = avg(timestamp - self->t); self->t = 0;"
		" trace(errno); printa(\"%s %@d\\n\", @c); } END { trunc(@c, 3); normalize(@d, "
		"1000); }",
		err, sizeof(err)));
	CHECK_EQ_STR(err, "");
}

/* printa's '@' is a flag anywhere before the conversion, as in DTrace. */
TEST(printa_at_is_a_flag)
{
	struct fmt_conv cv[FMT_MAX];
	char err[128];

	CHECK_EQ_INT(fmt_parse("%@10d|%-8@d|%@x|%@8u %s|%@", cv, FMT_MAX, err, sizeof(err)), 6);
	CHECK_EQ_STR(cv[0].spec, "%10");
	CHECK_EQ_INT(cv[0].vconv, 'd');
	CHECK_EQ_STR(cv[1].spec, "%-8");
	CHECK_EQ_INT(cv[2].vconv, 'x');
	CHECK_EQ_STR(cv[3].spec, "%8");
	CHECK_EQ_INT(cv[3].vconv, 'u');
	CHECK_EQ_INT(cv[4].conv, 's');
	CHECK_EQ_INT(cv[4].vconv, 0);
	CHECK_EQ_INT(cv[5].conv, '@');
	CHECK_EQ_INT(cv[5].vconv, 'd');
}

/* Widths and precisions above FMT_NUM_MAX are refused: the C library
 * printf fails on one beyond INT_MAX and the value was dropped. */
TEST(format_widths_are_bounded)
{
	struct fmt_conv cv[FMT_MAX];
	char err[128];

	CHECK_EQ_INT(fmt_parse("%4096d|%-08.0005d|%.d", cv, FMT_MAX, err, sizeof(err)), 3);
	CHECK_EQ_STR(cv[0].spec, "%4096");
	CHECK_EQ_STR(cv[1].spec, "%-08.5");
	CHECK_EQ_STR(cv[2].spec, "%.");
	CHECK_EQ_INT(fmt_parse("%99999999999d", cv, FMT_MAX, err, sizeof(err)), -1);
	CHECK_EQ_STR(err, "width 99999999999 in the format is too large: at most 4096");
	CHECK_EQ_INT(fmt_parse("%.4097s", cv, FMT_MAX, err, sizeof(err)), -1);
	CHECK_EQ_STR(err, "precision 4097 in the format is too large: at most 4096");
}

int main(void)
{
	RUN(ptregs_offsets_match_btf);
	RUN(spills_when_registers_run_out);
	RUN(diagnostics_are_located);
	RUN(deep_nesting_is_refused);
	RUN(every_feature_type_checks);
	RUN(printa_at_is_a_flag);
	RUN(format_widths_are_bounded);
	CHECK_EXIT();
}
