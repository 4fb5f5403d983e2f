// SPDX-License-Identifier: GPL-2.0
/*
 * Paths for -y's offline descriptor tables (fdtab.c): the absolute form
 * of what open, openat and chdir were given, made from the directory the
 * tables hold and cleaned lexically ("." and ".."), without touching the
 * file system; and, when the program runs on this host, the symbolic
 * links resolved the way /proc/PID/fd shows them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/strace/fdpath.h"

/* Appends the components of rel to the absolute path in buf, cleaning
 * "." and ".." lexically. */
static void path_join(char *buf, size_t len, const char *rel)
{
	const char *p = rel;

	while (*p) {
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		size_t bl = strlen(buf);

		if (n == 0 || (n == 1 && p[0] == '.')) {
			/* nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			char *slash = strrchr(buf, '/');

			if (slash && slash != buf)
				*slash = 0;
			else
				buf[1] = 0;
		} else if (bl + n + 2 < len) {
			if (bl > 1)
				buf[bl++] = '/';
			memcpy(buf + bl, p, n);
			buf[bl + n] = 0;
		}
		p += n;
		if (*p == '/')
			p++;
	}
}

int fdpath_resolve(const char *base, const char *path, char *out, size_t len)
{
	if (!path)
		return -1;
	if (path[0] == '/') {
		snprintf(out, len, "/");
		path_join(out, len, path);
		return 0;
	}
	if (!base || base[0] != '/')
		return -1;
	snprintf(out, len, "%s", base);
	path_join(out, len, path);
	return 0;
}

/* abs starts with the directory dir (followed by '/' or its end). */
static int under(const char *abs, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(abs, dir, n) && (abs[n] == '/' || !abs[n]);
}

/*
 * The kernel names a file opened through /proc/self by the opener's pid
 * (strace shows getdents64(3</proc/1234/fd>, ...)); resolving the link
 * here would name sonde's own.
 */
void fdpath_proc_self(char *abs, size_t len, uint32_t pid, uint32_t tid)
{
	char buf[4096];
	int n;

	if (under(abs, "/proc/self"))
		n = snprintf(buf, sizeof(buf), "/proc/%u%s", pid, abs + 10);
	else if (under(abs, "/proc/thread-self"))
		n = snprintf(buf, sizeof(buf), "/proc/%u/task/%u%s", pid, tid, abs + 17);
	else
		return;
	if (n > 0 && (size_t)n < len && (size_t)n < sizeof(buf))
		memcpy(abs, buf, (size_t)n + 1);
}

/*
 * The path as /proc/PID/fd would show it: symbolic links resolved on
 * this host (/lib/x.so -> /usr/lib/x.so). A file gone since keeps its
 * resolved directory. /proc (its self link made the task's own by
 * fdpath_proc_self), /dev/fd, /dev/std* would resolve to sonde's own:
 * left alone, as are paths that do not resolve at all.
 */
void fdpath_links(char *abs, size_t len)
{
	char *r, *slash;

	if (!strncmp(abs, "/proc/", 6) || !strcmp(abs, "/proc") ||
	    !strncmp(abs, "/dev/fd", 7) || !strncmp(abs, "/dev/std", 8))
		return;
	r = realpath(abs, NULL);
	if (!r && (slash = strrchr(abs, '/')) && slash != abs) {
		char *dir;

		*slash = 0;
		dir = realpath(abs, NULL);
		*slash = '/';
		if (dir && asprintf(&r, "%s%s", strcmp(dir, "/") ? dir : "", slash) < 0)
			r = NULL;
		free(dir);
	}
	if (r && strlen(r) < len)
		memcpy(abs, r, strlen(r) + 1);
	free(r);
}
