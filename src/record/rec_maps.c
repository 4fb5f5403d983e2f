// SPDX-License-Identifier: GPL-2.0
/*
 * record --user-stack of a process attached with -p or --comm: the files
 * it has mapped (/proc/PID/maps) as image records (events.h), what the
 * kernel side reports from exec and mmap for the processes it sees start.
 * The path is stored as the kernel side stores it: components leaf first,
 * each NUL-terminated (sonde_path_to_components).
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sonde/analysis.h>

#include "record/rec_int.h"

struct image_rec {
	struct sonde_ev_image ev;
	char path[SONDE_IMAGE_PATH_MAX + 8];
};

/* One line of /proc/PID/maps: "START-END PERMS OFFSET DEV INODE PATH". */
static void maps_line(struct rec_consumer *c, unsigned int stream, pid_t tgid, const char *line,
		      uint64_t ts)
{
	unsigned long long start, end, off;
	struct image_rec r;
	char perms[8];
	int pos = 0, n;

	if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &off, &pos) < 4 ||
	    !pos || line[pos] != '/')
		return;
	memset(&r, 0, sizeof(r));
	n = sonde_path_to_components(line + pos, r.path, SONDE_IMAGE_PATH_MAX);
	if (n < 0)
		return;
	r.ev.hdr.ts = ts;
	r.ev.hdr.pid = r.ev.hdr.tid = (uint32_t)tgid;
	r.ev.hdr.type = SONDE_REC_IMAGE;
	r.ev.hdr.size = SONDE_REC_ALIGN(sizeof(r.ev) + (size_t)n + 1);
	r.ev.hdr.cpu = sched_getcpu() < 0 ? 0 : (uint16_t)sched_getcpu();
	r.ev.hdr.flags = perms[2] == 'x' ? SONDE_IMAGE_X : 0;
	r.ev.start = start;
	r.ev.end = end;
	r.ev.pgoff = off;
	r.ev.path_len = (uint16_t)n;
	rec_consumer_append(c, stream, &r.ev.hdr);
}

void rec_maps_write(struct rec_consumer *c, unsigned int stream, pid_t tgid)
{
	char name[64], *line = NULL;
	uint64_t ts = rec_now_mono();
	size_t cap = 0;
	FILE *f;

	snprintf(name, sizeof(name), "/proc/%d/maps", (int)tgid);
	f = fopen(name, "re");
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = 0;
		maps_line(c, stream, tgid, line, ts);
	}
	free(line);
	fclose(f);
}
