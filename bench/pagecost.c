// SPDX-License-Identifier: GPL-2.0
/*
 * What a fresh page costs on this machine: maps MiB of anonymous memory
 * with MAP_POPULATE (the kernel allocates and zeroes every page), unmaps
 * it, ROUNDS times, and prints the time per 4 KiB page of each round. On
 * bare metal that is ~0.1 us; on a VM whose free pages are handed back to
 * the host (virtio-balloon free page reporting), each page is also a host
 * fault, and the figure says how much of a workload's or a tracer's time
 * is really the hypervisor's (bench/README.md, "Page allocation").
 *
 *   usage: pagecost [MiB [ROUNDS]]      (default 256 MiB, 3 rounds)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/mman.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 256;
	int rounds = argc > 2 ? atoi(argv[2]) : 3;
	size_t len = mib << 20, pages = len / 4096;

	if (!mib || rounds < 1) {
		fprintf(stderr, "usage: pagecost [MiB [ROUNDS]]\n");
		return 2;
	}
	for (int r = 0; r < rounds; r++) {
		double a = now(), b;
		void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

		if (p == MAP_FAILED) {
			perror("pagecost: mmap");
			return 1;
		}
		b = now();
		munmap(p, len);
		printf("%zu MiB populated in %.1f ms: %.2f us per page\n", mib, (b - a) * 1e3,
		       (b - a) * 1e6 / pages);
	}
	return 0;
}
