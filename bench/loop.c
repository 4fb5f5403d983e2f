// SPDX-License-Identifier: GPL-2.0
/*
 * The syscall-loop benchmark: N iterations of read(64 B from /dev/zero) +
 * write(64 B to /dev/null), N = argv[1] (default 2000000). Prints the number
 * of syscalls made in the loop and the loop's wall time, so a recorder's
 * count can be checked against it:
 *   loop: 4000000 syscalls 1.234567 s
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000000;
	int in = open("/dev/zero", O_RDONLY), out = open("/dev/null", O_WRONLY);
	struct timespec a, b;
	char buf[64];

	if (in < 0 || out < 0 || n < 0) {
		perror("loop: /dev/zero, /dev/null");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++) {
		if (read(in, buf, sizeof(buf)) != sizeof(buf) ||
		    write(out, buf, sizeof(buf)) != sizeof(buf)) {
			perror("loop: read/write");
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("loop: %ld syscalls %.6f s\n", 2 * n,
	       (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
	return 0;
}
