// SPDX-License-Identifier: GPL-2.0
/*
 * The overhead floor: attaches two empty BPF programs ("r0 = 0; exit") to
 * the sys_enter and sys_exit raw tracepoints, runs CMD, detaches, exits
 * with CMD's status. What every syscall pays before a tracer does any work.
 * Plain bpf(2), no libbpf, so the bench Makefile rule can build it.
 *
 *   usage: floor CMD [ARGS...]
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static int bpf(int cmd, union bpf_attr *a)
{
	return (int)syscall(SYS_bpf, cmd, a, sizeof(*a));
}

static int floor_attach(const char *tp)
{
	struct bpf_insn prog[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT;
	a.insns = (unsigned long)prog;
	a.insn_cnt = 2;
	a.license = (unsigned long)"GPL";
	fd = bpf(BPF_PROG_LOAD, &a);
	if (fd < 0)
		return -1;
	memset(&a, 0, sizeof(a));
	a.raw_tracepoint.name = (unsigned long)tp;
	a.raw_tracepoint.prog_fd = fd;
	return bpf(BPF_RAW_TRACEPOINT_OPEN, &a);
}

int main(int argc, char **argv)
{
	int status;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: floor CMD [ARGS...]\n");
		return 2;
	}
	if (floor_attach("sys_enter") < 0 || floor_attach("sys_exit") < 0) {
		fprintf(stderr, "floor: attaching BPF programs: %s (needs root)\n",
			strerror(errno));
		return 1;
	}
	pid = fork();
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		fprintf(stderr, "floor: %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
