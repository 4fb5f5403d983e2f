// SPDX-License-Identifier: GPL-2.0
/* Log2 histograms, printed the way bpftrace's hist() prints them. */
#include <inttypes.h>
#include <string.h>

#include <sonde/analysis.h>

unsigned int sonde_hist_bucket(uint64_t v)
{
	return v ? 64 - __builtin_clzll(v) : 0;
}

/* 1536 -> "1536", 2048 -> "2K": suffix only on exact powers of 1024. */
static void hist_label(char *buf, size_t len, uint64_t v)
{
	static const char *const sfx[] = { "", "K", "M", "G", "T", "P", "E" };
	unsigned int i = 0;

	while (v && v % 1024 == 0 && i < 6) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, "%" PRIu64 "%s", v, sfx[i]);
}

#define HIST_BAR 52

void sonde_hist_fprint(FILE *f, const uint64_t *hist, const char *indent)
{
	unsigned int lo = SONDE_HIST_BUCKETS, hi = 0;
	uint64_t max = 0;
	char a[24], b[24], range[56], bar[HIST_BAR + 1];

	for (unsigned int k = 0; k < SONDE_HIST_BUCKETS; k++) {
		if (!hist[k])
			continue;
		if (k < lo)
			lo = k;
		hi = k;
		if (hist[k] > max)
			max = hist[k];
	}
	if (!max)
		return;
	for (unsigned int k = lo; k <= hi; k++) {
		unsigned int n = (unsigned int)((double)hist[k] * HIST_BAR / max);

		if (k == 0) {
			snprintf(range, sizeof(range), "[0]");
		} else if (k == 1) {
			snprintf(range, sizeof(range), "[1]");
		} else {
			hist_label(a, sizeof(a), (uint64_t)1 << (k - 1));
			if (k == 64)
				snprintf(b, sizeof(b), "...");
			else
				hist_label(b, sizeof(b), (uint64_t)1 << k);
			snprintf(range, sizeof(range), "[%s, %s)", a, b);
		}
		memset(bar, '@', n);
		memset(bar + n, ' ', HIST_BAR - n);
		bar[HIST_BAR] = '\0';
		fprintf(f, "%s%-20s %8" PRIu64 " |%s|\n", indent, range, hist[k], bar);
	}
}
