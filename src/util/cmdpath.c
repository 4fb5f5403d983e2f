// SPDX-License-Identifier: GPL-2.0
/*
 * Finding the program a command names, as a shell would, for the
 * commands sonde starts (record, strace, script -c). No BPF here: the
 * language and its fuzz targets link it without the recorder.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <sonde/record.h>

static int exec_candidate(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EACCES;
	if (access(path, X_OK))
		return -errno;
	return 0;
}

/* Like a POSIX shell: a name with a slash is used as is, otherwise every
 * PATH entry is tried; a candidate that exists but cannot be executed is
 * reported as EACCES only if no later entry works. */
int sonde_resolve_cmd(const char *cmd, char *path, size_t len)
{
	const char *env = getenv("PATH"), *p, *end;
	int result = -ENOENT;

	if (!*cmd)
		return -ENOENT;
	if (strchr(cmd, '/')) {
		if ((size_t)snprintf(path, len, "%s", cmd) >= len)
			return -ENAMETOOLONG;
		return exec_candidate(path);
	}
	if (!env)
		env = "/usr/local/bin:/usr/bin:/bin";
	for (p = env; ; p = end + 1) {
		int e;

		end = strchrnul(p, ':');
		if ((size_t)snprintf(path, len, "%.*s%s%s", (int)(end - p), p,
				     end == p ? "" : "/", cmd) < len) {
			e = exec_candidate(path);
			if (!e)
				return 0;
			if (e == -EACCES)
				result = -EACCES;
		}
		if (!*end)
			break;
	}
	return result;
}
