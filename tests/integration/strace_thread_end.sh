#!/usr/bin/env bash
# How threads end, against Debian's strace 6.1 on tests/fixtures/thread_end:
# calls cut short by their task's death (another thread's exit_group, a
# thread's execve) print "= ?" with no result, as strace never sees them
# return (the recorder marks them: SIGKILL pending at the call's exit);
# the group leader's exit line comes after its threads'; the leader a
# thread's execve replaced is "superseded by execve", that execve enters
# in the thread's pid and returns in the leader's, its path and argv
# strings (literals in pages the thread never touched) from the exec
# record. Live (`sonde strace -f`) and offline (`sonde print --strace`).
. "$(dirname "$0")/lib.sh"
need_root
need_strace
F=$FIX/thread_end

# ends FILE: the lines from the main thread's exit_group (exit) or the
# execve (exec) on, pids named by role: L the leader, R, E, P the threads
# in read, epoll_wait, pause, X the thread that execs; addresses and the
# padding before " = " removed, up to the leader's exit line or the
# execve's return. The killed threads die in any order: their lines are
# sorted, the last line is checked to be the last.
ends() {
	python3 - "$1" <<'PY'
import re, sys
lines = [l.rstrip("\n") for l in open(sys.argv[1])]
lead = lines[0].split()[0]
role = {lead: "L"}
for l in lines:
    p, _, t = l.partition(" ")
    t = t.lstrip()
    for k, r in (("read(3", "R"), ("epoll_wait(", "E"), ("pause(", "P"), ('execve("/bin/true"', "X")):
        if t.startswith(k) and p != lead:
            role.setdefault(p, r)
start = next(i for i, l in enumerate(lines)
             if re.search(r'exit_group\(0\)|execve\("/bin/true"', l))
out = []
for l in lines[start:]:
    p, _, t = l.partition(" ")
    t = re.sub(r"0x[0-9a-f]+", "ADDR", re.sub(r"\) +=", ") =", t.lstrip()))
    t = re.sub(r"pid \d+", lambda m: "pid " + role.get(m.group(0)[4:], "?"), t)
    out.append(role.get(p, "?") + " " + t)
    if (t.startswith("+++") and p == lead and "superseded" not in t) or \
            t.startswith("<... execve resumed>"):
        break
last = out[-1]
print("\n".join(sorted(out[:-1]) + ["LAST " + last]))
PY
}

for m in exit exec; do
	strace -f -o "$TMP/$m.ref" "$F" $m
	ends "$TMP/$m.ref" > "$TMP/$m.ref.n"
	"$SONDE" strace -f -o "$TMP/$m.live" --trace-file "$TMP/$m.sonde" "$F" $m
	ends "$TMP/$m.live" > "$TMP/$m.live.n"
	"$SONDE" print --strace "$TMP/$m.sonde" > "$TMP/$m.off"
	ends "$TMP/$m.off" > "$TMP/$m.off.n"
	check "strace_thread_end: $m: strace's lines are the expected kind" \
		grep -q '= ?$' "$TMP/$m.ref.n"
	for w in live off; do
		same "strace_thread_end: $m, $w: the threads' ends as strace prints them" \
			"$TMP/$m.ref.n" "$TMP/$m.$w.n"
	done
done
cat "$TMP/exit.ref.n" "$TMP/exec.ref.n" | sed 's/^/# strace: /'

# The mark is in the trace: killed, no errno, in sonde print --json.
"$SONDE" print --json -e trace=read,pause,epoll_wait "$TMP/exit.sonde" > "$TMP/exit.json"
check "strace_thread_end: print --json: the three calls are marked killed, without errno" \
	python3 -c '
import json, sys
k = [o for o in map(json.loads, open(sys.argv[1])) if o.get("killed")]
sys.exit(not (sorted(o["name"] for o in k) == ["epoll_wait", "pause", "read"] and
              not any("errno" in o for o in k)))' "$TMP/exit.json"
# -c does not count them, as strace, which never saw them return.
strace -f -c -w -o "$TMP/c.ref" "$F" exit
"$SONDE" strace -f -c -o "$TMP/c.got" "$F" exit
count_rows "$TMP/c.ref" | sort > "$TMP/c.ref.n"
count_rows "$TMP/c.got" | sort > "$TMP/c.got.n"
same "strace_thread_end: -c: the calls strace counts" "$TMP/c.ref.n" "$TMP/c.got.n"

# Without -f only the main thread is shown; its exit line comes when the
# process ends, which may be another thread's exit (the kernel's
# group_dead): that exit, not shown, must still release it. "last": the
# main thread ends first, the process with another thread's exit(3).
strace -o "$TMP/nof.ref" "$F" last
"$SONDE" strace -o "$TMP/nof.got" "$F" last
check "strace_thread_end: without -f, strace's last line is the exit line" \
	[ "$(tail -1 "$TMP/nof.ref")" = "+++ exited with 3 +++" ]
for f in ref got; do
	tail -2 "$TMP/nof.$f" | sed 's/) *=/) =/' > "$TMP/nof.$f.n"
done
same "strace_thread_end: without -f, the main thread's last lines as strace prints them" \
	"$TMP/nof.ref.n" "$TMP/nof.got.n"
# With -f too: the leader's line, last, says the process's status (the
# other thread's exit(3)), not the leader's own pthread_exit.
strace -f -o "$TMP/lastf.ref" "$F" last
"$SONDE" strace -f -o "$TMP/lastf.got" "$F" last
check "strace_thread_end: -f, leader first: the last line says the process's status, as strace" \
	[ "$(tail -1 "$TMP/lastf.ref" | cut -d' ' -f2-)" = "+++ exited with 3 +++" -a \
	  "$(tail -1 "$TMP/lastf.got" | cut -d' ' -f2-)" = "+++ exited with 3 +++" ]
