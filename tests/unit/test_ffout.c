// SPDX-License-Identifier: GPL-2.0
/*
 * -ff's files per task (src/decode/strace/ffout.c): more tasks than files
 * kept open, so some are closed and reopened; a reopened file is appended
 * to, never truncated, and every line lands in its task's file in order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "decode/strace/ffout.h"

#define TASKS 150 /* more than ffout keeps open */

static void check_file(const char *dir, unsigned int tid)
{
	char path[256], want[64], got[256] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/t.%u", dir, tid);
	snprintf(want, sizeof(want), "a %u\nb %u\n", tid, tid);
	f = fopen(path, "r");
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK_EQ_INT(fread(got, 1, sizeof(got) - 1, f), strlen(want));
	CHECK_EQ_STR(got, want);
	fclose(f);
}

TEST(reopened_files_keep_their_lines)
{
	char dir[] = "/tmp/sonde-ffout.XXXXXX", prefix[64], cmd[128];
	struct ffout *ff;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(prefix, sizeof(prefix), "%s/t", dir);
	ff = ffout_new(prefix, 0);
	CHECK(ff != NULL);
	for (const char *p = "ab"; *p; p++)
		for (unsigned int tid = 1000; tid < 1000 + TASKS; tid++) {
			FILE *f = ffout_file(ff, tid);

			CHECK(f != NULL);
			if (f)
				fprintf(f, "%c %u\n", *p, tid);
		}
	CHECK_EQ_INT(ffout_free(ff), 0);
	for (unsigned int tid = 1000; tid < 1000 + TASKS; tid++)
		check_file(dir, tid);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK_EQ_INT(system(cmd), 0);
}

/* A prefix in a directory that does not exist: no file, errno says why. */
TEST(unwritable_prefix)
{
	struct ffout *ff = ffout_new("/nonexistent-dir/t", 0);

	CHECK(ffout_file(ff, 1) == NULL);
	CHECK_EQ_INT(ffout_free(ff), 0);
}

int main(void)
{
	RUN(reopened_files_keep_their_lines);
	RUN(unwritable_prefix);
	CHECK_EXIT();
}
