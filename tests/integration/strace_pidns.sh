#!/usr/bin/env bash
# --decode-pids=pidns (and -Y) for tracees in another pid namespace,
# against Debian's strace 6.1: each mode of tests/fixtures/strace_x_pids.c
# (every pid site -Y names: arguments, results, structs, siginfo, the
# children of clone and vfork) run in a new namespace by `unshare -pf`,
# where the fixture is pid 1 and its children 2, 3...: the pids its calls
# take and return are the namespace's, and strace follows each with
# "/* N in strace's PID NS */". Then: process groups and sessions, the
# same lines from a recorded trace, the nspid records in JSON, and a
# process attached with -p inside a namespace.
. "$(dirname "$0")/lib.sh"
need_root
need_strace
need_cmd unshare "unshare (util-linux) is not installed"
F=$FIX/strace_x_pids
L=tests/integration/strace_lines.py

# lines LOG: tasks named in order of appearance, each task's lines
# together in their order; unshare's own (T0: in the initial namespace,
# the first line the tracer's, its wait4 naming a child that may have
# exec'd or not) left out; a System V segment's id is the kernel's.
lines() {
	python3 $L --order "$1" | grep -v '^T0 ' | sort -s -k1,1 |
		sed -E 's/(shmget\(.*\) = |shmctl\()[0-9]+/\1ID/'
}
# compare NAME SET ARGS...: strace and sonde strace -f --decode-pids=SET.
compare() {
	local name=$1 set=$2
	shift 2
	rm -rf "$TMP/d" && mkdir -p "$TMP/d"
	(cd "$TMP/d" && strace -f --decode-pids="$set" -o ../ref unshare -pf "$@" \
		< /dev/null > /dev/null 2>&1)
	rm -rf "$TMP/d" && mkdir -p "$TMP/d"
	(cd "$TMP/d" && "$SONDE" strace -f --decode-pids="$set" -o ../got unshare -pf "$@" \
		< /dev/null > /dev/null 2>&1)
	lines "$TMP/ref" > "$TMP/ref.n"
	lines "$TMP/got" > "$TMP/got.n"
	same "strace_pidns: $name, --decode-pids=$set, as strace" "$TMP/ref.n" "$TMP/got.n"
}
for mode in $("$F" --modes | cut -d'|' -f1); do
	pid_headroom
	compare "$mode" all "$F" "$mode"
	check "strace_pidns: $mode: pids translated" grep -q " in strace's PID NS \*/" "$TMP/got.n"
done
compare "signals" pidns "$F" signals
compare "clone" pidns "$F" clone

# Process groups and sessions: results translated, never named.
cat > "$TMP/pg.c" << 'EOF'
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void)
{
	sigset_t chld;
	pid_t p;

	/* no SIGCHLD line: where it lands is a race without ptrace */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	p = fork();

	if (p == 0) {
		setpgid(0, 0);
		getpgid(0);
		getpgrp();
		getsid(0);
		_exit(0);
	}
	waitpid(p, NULL, 0);
	getpgid(p);   /* reaped: no translation */
	getpgrp();    /* a group outside the namespace: 0 */
	return 0;
}
EOF
if cc -o "$TMP/pg" "$TMP/pg.c"; then
	compare "process groups" all "$TMP/pg"
	check "strace_pidns: getpgrp's group translated" \
		grep -qE "getpgrp\(\) = [0-9]+ /\* T[0-9]+ in strace's PID NS \*/" "$TMP/got.n"
else
	notok "strace_pidns: cannot build the process group program"
fi

# A recorded trace says the same.
(cd "$TMP" && "$SONDE" record -q -o ns.trace unshare -pf "$F" signals < /dev/null > /dev/null 2>&1)
"$SONDE" print --strace --decode-pids=all "$TMP/ns.trace" > "$TMP/print"
"$SONDE" strace -f --decode-pids=all -o "$TMP/live" unshare -pf "$F" signals < /dev/null \
	> /dev/null 2>&1
lines "$TMP/live" > "$TMP/live.n"
lines "$TMP/print" > "$TMP/print.n"
same "strace_pidns: print --strace --decode-pids=all as sonde strace" "$TMP/live.n" "$TMP/print.n"
"$SONDE" print --json "$TMP/ns.trace" |
	python3 -c 'import json, sys
n = [o for o in map(json.loads, sys.stdin) if o["type"] == "nspid"]
print("ok" if n and n[0]["level"] == 1 and n[0]["ns_tid"] == 1 and n[0]["ns_pid"] == 1
      and all(o["ns_inum"] == n[0]["ns_inum"] for o in n) else "bad")' > "$TMP/json.out"
check "strace_pidns: JSON nspid objects: the fixture is 1 in its namespace" \
	grep -qx ok "$TMP/json.out"

# -p: a process inside a namespace, attached while it waits on a fifo;
# its ids there come from /proc (NSpid), not from a fork record.
mkfifo "$TMP/go"
unshare -pf sh -c "read x < '$TMP/go'; kill -0 \$\$" &
U=$!
for ((i = 0; i < 200; i++)); do
	P=$(pgrep -P $U -x sh) && [ -n "$P" ] && break
	sleep 0.01
done
"$SONDE" strace --decode-pids=pidns -e trace=kill -o "$TMP/att" -p "$P" 2> /dev/null &
S=$!
sleep 1
echo > "$TMP/go"
wait $S
wait $U
check "strace_pidns: -p inside a namespace: kill(1 /* $P in strace's PID NS */, 0)" \
	grep -qF "kill(1 /* $P in strace's PID NS */, 0) = 0" "$TMP/att"
