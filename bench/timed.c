// SPDX-License-Identifier: GPL-2.0
/*
 * Runs CMD and appends "wall_s user_s sys_s" of CMD and its descendants
 * to the file OUT, so a benchmark times the workload itself whatever tracer
 * wraps it (tracer start-up and tear-down are not counted). Exits with
 * CMD's status.
 *
 *   usage: timed OUT CMD [ARGS...]
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

static double tv(struct timeval t)
{
	return t.tv_sec + t.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	struct timespec a, b;
	struct rusage ru;
	int status;
	pid_t pid;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: timed OUT CMD [ARGS...]\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	pid = fork();
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &b);
	getrusage(RUSAGE_CHILDREN, &ru);
	f = fopen(argv[1], "a");
	if (!f)
		return 1;
	fprintf(f, "%.6f %.6f %.6f\n", (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9,
		tv(ru.ru_utime), tv(ru.ru_stime));
	fclose(f);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
