// SPDX-License-Identifier: GPL-2.0
/*
 * sonde strace -E and -u, as strace 6.1 has them. The environment is
 * sonde's own (pointers into it, not copies) edited in order; the user is
 * looked up here, in the parent, because the child between fork and
 * execve may only make async-signal-safe calls (rec_launch.c sets the ids).
 */
#include <errno.h>
#include <limits.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/strace_launch.h"

extern char **environ;

/* Room for one more entry and the terminating NULL. */
static int env_room(struct strace_launch *l)
{
	char **v;
	size_t cap;

	if (l->nenv + 2 <= l->capenv)
		return 0;
	cap = l->capenv ? 2 * l->capenv : 64;
	while (cap < l->nenv + 2)
		cap *= 2;
	v = realloc(l->env, cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	l->env = v;
	l->capenv = cap;
	return 0;
}

static int env_copy(struct strace_launch *l)
{
	for (char **e = environ; e && *e; e++) {
		if (env_room(l))
			return -ENOMEM;
		l->env[l->nenv++] = *e;
	}
	if (env_room(l))
		return -ENOMEM;
	l->env[l->nenv] = NULL;
	return 0;
}

int strace_launch_env(struct strace_launch *l, const char *arg)
{
	size_t len = strcspn(arg, "="), j = 0;

	if (!l->env && env_copy(l))
		return -ENOMEM;
	for (size_t i = 0; i < l->nenv; i++)
		if (strncmp(l->env[i], arg, len) || l->env[i][len] != '=')
			l->env[j++] = l->env[i];
	l->nenv = j;
	if (arg[len] == '=') {
		if (env_room(l))
			return -ENOMEM;
		l->env[l->nenv++] = (char *)arg;
	}
	l->env[l->nenv] = NULL;
	return 0;
}

int strace_launch_user(struct strace_launch *l, const char *name, char *err, size_t errlen)
{
	struct passwd *pw = getpwnam(name);
	int n = 16;
	gid_t *g = NULL;

	if (!pw) {
		snprintf(err, errlen, "-u %s: Cannot find user '%s'", name, name);
		return -ENOENT;
	}
	for (;;) {
		gid_t *ng = realloc(g, (size_t)n * sizeof(*g));
		int want = n;

		if (!ng) {
			free(g);
			snprintf(err, errlen, "-u %s: out of memory", name);
			return -ENOMEM;
		}
		g = ng;
		if (getgrouplist(pw->pw_name, pw->pw_gid, g, &want) >= 0) {
			n = want;
			break;
		}
		n = want > n ? want : 2 * n;
	}
	free(l->groups);
	l->groups = g;
	l->run_as.uid = pw->pw_uid;
	l->run_as.gid = pw->pw_gid;
	l->run_as.groups = g;
	l->run_as.ngroups = (size_t)n;
	l->user_set = 1;
	return 0;
}

static int pid_listed(const pid_t *pids, size_t n, pid_t p)
{
	for (size_t i = 0; i < n; i++)
		if (pids[i] == p)
			return 1;
	return 0;
}

int strace_launch_pids(pid_t *pids, size_t *npids, size_t max, const char *arg, char *err,
		       size_t errlen)
{
	const char *sep = ", \t\n", *s = arg;
	int n = 0;

	for (;; n++) {
		char *end;
		long p;

		s += strspn(s, sep);
		if (!*s)
			break;
		p = strtol(s, &end, 10);
		if (end == s || p <= 0 || p > INT_MAX || (*end && !strchr(sep, *end))) {
			snprintf(err, errlen, "-p '%s': expected process ids, separated by commas or blanks", arg);
			return -EINVAL;
		}
		s = end;
		if (pid_listed(pids, *npids, (pid_t)p))
			continue;
		if (*npids >= max) {
			snprintf(err, errlen, "-p: more than %zu processes", max);
			return -E2BIG;
		}
		pids[(*npids)++] = (pid_t)p;
	}
	if (n)
		return 0;
	snprintf(err, errlen, "-p '%s': expected a process id", arg);
	return -EINVAL;
}

void strace_launch_apply(const struct strace_launch *l, struct sonde_record_opts *ro)
{
	ro->envp = l->env;
	ro->run_as = l->user_set ? &l->run_as : NULL;
}

void strace_launch_free(struct strace_launch *l)
{
	free(l->env);
	free(l->groups);
	memset(l, 0, sizeof(*l));
}
