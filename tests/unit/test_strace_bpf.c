// SPDX-License-Identifier: GPL-2.0
/*
 * bpf(2) results the fixture (tests/fixtures/strace_x_bpf.c) cannot
 * compare with strace: program ids are global counters, different in
 * every run. The expected text follows strace 6.1's PROG_QUERY decoder.
 */
#include <linux/bpf.h>
#include <stddef.h>
#include <string.h>

#include "check.h"
#include "test_strace_util.h"

static struct tcall T;

TEST(prog_query_ids)
{
	union bpf_attr in, out;
	uint32_t ids[2] = { 41, 57 };
	struct sonde_strace_opts o;

	memset(&in, 0, sizeof(in));
	in.query.target_fd = 5;
	in.query.attach_type = BPF_CGROUP_INET_EGRESS;
	in.query.query_flags = BPF_F_QUERY_EFFECTIVE;
	in.query.attach_flags = BPF_F_ALLOW_MULTI;
	in.query.prog_ids = 0x3000;
	in.query.prog_cnt = 8;
	out = in;
	out.query.prog_cnt = 2;
	tc_new(&T, SYS_bpf, 0, BPF_PROG_QUERY, 0x2000, 40, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x2000, &in, 40);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x2000, &out, 40);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x3000, ids, sizeof(ids));
	CHECK_EQ_STR(tc_fmt(&T), "bpf(BPF_PROG_QUERY, {query={target_fd=5, attach_type="
				 "BPF_CGROUP_INET_EGRESS, query_flags=BPF_F_QUERY_EFFECTIVE, "
				 "attach_flags=BPF_F_ALLOW_MULTI, prog_ids=[41, 57], prog_cnt=8 => 2}}, "
				 "40) = 0");
	/* -s 1 cuts the array as strace's print_array does */
	sonde_strace_opts_init(&o);
	o.strsize = 1;
	CHECK(strstr(tc_fmt_opts(&T, &o), "prog_ids=[41, ...], prog_cnt=8 => 2}}") != NULL);
}

int main(void)
{
	RUN(prog_query_ids);
	CHECK_EXIT();
}
