/* SPDX-License-Identifier: GPL-2.0 */
/* sonde strace -E and -u: the environment and the user of the command it
 * starts; -p: the processes it attaches to (strace_launch.c). */
#ifndef SONDE_CLI_STRACE_LAUNCH_H
#define SONDE_CLI_STRACE_LAUNCH_H

#include <stddef.h>
#include <sys/types.h>

#include <sonde/record.h>

struct strace_launch {
	char **env; /* NULL until the first -E; then NULL-terminated */
	size_t nenv, capenv;
	struct sonde_run_as run_as;
	gid_t *groups;
	int user_set;
};

/* -E VAR=VAL puts VAR=VAL in place of any VAR, -E VAR takes VAR out of
 * the environment sonde passes on. 0 or -ENOMEM. arg must outlive l. */
int strace_launch_env(struct strace_launch *l, const char *arg);
/* -u NAME: NAME's user and group ids and supplementary groups, as
 * initgroups(3) sets them. 0, or -ENOENT / -ENOMEM with err set. */
int strace_launch_user(struct strace_launch *l, const char *name, char *err, size_t errlen);
/* -p PID, or a list of them separated by commas or blanks as strace takes
 * them (-p "$(pidof nginx)"), appended to pids[*npids] (max at most); a
 * pid already there is not added again. 0, or -EINVAL / -E2BIG with err
 * set. */
int strace_launch_pids(pid_t *pids, size_t *npids, size_t max, const char *arg, char *err,
		       size_t errlen);
/* Points ro's envp and run_as at what -E and -u gave. */
void strace_launch_apply(const struct strace_launch *l, struct sonde_record_opts *ro);
void strace_launch_free(struct strace_launch *l);

#endif
