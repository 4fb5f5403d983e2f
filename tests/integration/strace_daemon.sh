#!/usr/bin/env bash
# sonde strace -D, -DD, -DDD (--daemonize=): the command runs in the
# process that ran sonde (its pid, its parent, its exit status go to the
# caller) and the recorder in a grandchild, in the caller's process group,
# a new one or a new session. Compared with Debian's strace 6.1 -D.
#
# The recorder outlives the command by the time of its last drain: each
# run below pipes sonde's standard output through cat, which returns only
# once the recorder, which holds that pipe too, has exited.
. "$(dirname "$0")/lib.sh"
need_root
need_strace

# The command's own pid and parent, as it sees them.
bash -c 'echo "caller $$"; "$0" strace -D -o "$1/d.txt" -- sh -c "echo parent \$PPID"; true' \
	"$SONDE" "$TMP" 2> "$TMP/d.err" | cat > "$TMP/d.out"
check "strace_daemon: -D: the command is the caller's child" \
	test "$(sed -n 's/^caller //p' "$TMP/d.out")" = "$(sed -n 's/^parent //p' "$TMP/d.out")"
bash -c '"$0" strace -o "$1/n.txt" -- sh -c "echo parent \$PPID"; echo "caller $$"' \
	"$SONDE" "$TMP" | cat > "$TMP/n.out"
check "strace_daemon: without -D the command is sonde's child" \
	test "$(sed -n 's/^caller //p' "$TMP/n.out")" != "$(sed -n 's/^parent //p' "$TMP/n.out")"
bash -c 'echo "caller $$"; exec "$0" strace -D -o "$1/e.txt" -- sh -c "echo me \$\$"' \
	"$SONDE" "$TMP" | cat > "$TMP/e.out"
check "strace_daemon: -D: the command keeps the pid sonde had" \
	test "$(sed -n 's/^caller //p' "$TMP/e.out")" = "$(sed -n 's/^me //p' "$TMP/e.out")"
check "strace_daemon: -D: the trace starts with the command's execve" \
	grep -q '^execve("/usr/bin/sh", \["sh", "-c", "echo me \$\$"\]' "$TMP/e.txt"
check "strace_daemon: -D: the trace ends with its exit" \
	test "$(tail -n 1 "$TMP/e.txt")" = "+++ exited with 0 +++"
check "strace_daemon: -D: nothing on standard error with -o" test ! -s "$TMP/d.err"

# The same lines as strace -D, process by process (-ff).
for F in "$FIX/rec_child" "$FIX/strace_fs"; do
	rm -rf "$TMP/a" "$TMP/b"
	mkdir -p "$TMP/a" "$TMP/b"
	strace -D -ff -ttt -o "$TMP/a/t" "$F" 2>&1 | cat > /dev/null
	"$SONDE" strace -D -ff -ttt -o "$TMP/b/t" "$F" 2>&1 | cat > /dev/null
	ff_norm "$TMP/a" > "$TMP/a.n"
	ff_norm "$TMP/b" > "$TMP/b.n"
	same "strace_daemon: -D -ff of $(basename "$F") as strace -D" "$TMP/a.n" "$TMP/b.n"
done

# The exit status is the command's own, a signal's too.
(bash -c '"$0" strace -D -o "$1/s.txt" -- sh -c "exit 3"; echo "status $?"' "$SONDE" "$TMP" |
	cat > "$TMP/s.out")
check "strace_daemon: -D: the caller gets the command's exit status" grep -qx 'status 3' "$TMP/s.out"
(bash -c '"$0" strace -D -o "$1/k.txt" -- sh -c "kill -TERM \$\$"; echo "status $?"' \
	"$SONDE" "$TMP" 2> /dev/null | cat > "$TMP/k.out")
check "strace_daemon: -D: and a signal's death" grep -qx 'status 143' "$TMP/k.out"
check "strace_daemon: -D: the trace shows that death" \
	test "$(tail -n 1 "$TMP/k.txt")" = "+++ killed by SIGTERM +++"

# Where the recorder runs: the process group and session of the running
# sonde (its /proc/PID/exe is this build's binary) against the command's.
cat > "$TMP/where.sh" << EOF
for p in /proc/[0-9]*; do
	[ "\$(readlink "\$p/exe" 2> /dev/null)" = "$SONDE" ] || continue
	echo "recorder \$(cut -d' ' -f5,6 "\$p/stat")"
done
echo "command \$(cut -d' ' -f5,6 /proc/\$\$/stat)"
EOF
where() { # OPTION: "same" or "other", for the process group then the session
	setsid bash -c '"$0" strace "$1" -o /dev/null -- sh "$2"' "$SONDE" "$1" "$TMP/where.sh" |
		cat > "$TMP/w.out"
	awk '$1 == "recorder" { rg = $2; rs = $3; n++ }
	     $1 == "command" { cg = $2; cs = $3 }
	     END { if (n != 1) print "recorders: " n
		   else print (rg == cg ? "same" : "other"), (rs == cs ? "same" : "other") }' \
		"$TMP/w.out"
}
check "strace_daemon: -D: the recorder stays in the caller's process group" \
	test "$(where -D)" = "same same"
check "strace_daemon: -DD: the recorder has a process group of its own" \
	test "$(where -DD)" = "other same"
check "strace_daemon: -DDD: the recorder has a session of its own" \
	test "$(where -DDD)" = "other other"
check "strace_daemon: --daemonize=pgroup is -DD" test "$(where --daemonize=pgroup)" = "other same"
check "strace_daemon: --daemonize=session is -DDD" test "$(where --daemonize=session)" = "other other"
check "strace_daemon: --daemonize is -D" test "$(where --daemonize)" = "same same"

# -DD: a signal to the caller's whole process group spares the recorder,
# which records the command's death by it.
setsid bash -c '"$0" strace -DD -o "$1/g.txt" -- sh -c "sleep 0.2; kill -TERM 0"' "$SONDE" "$TMP" |
	cat > /dev/null
check "strace_daemon: -DD: kill(0, SIGTERM) of the command's group, recorded to its end" \
	test "$(tail -n 1 "$TMP/g.txt")" = "+++ killed by SIGTERM +++"

# With -e inject: sh takes $PPID from getppid.
"$SONDE" strace -D -o "$TMP/i.txt" -e inject=getppid:retval=42 -e trace=getppid \
	-- sh -c 'echo $PPID' | cat > "$TMP/i.out"
check "strace_daemon: -D -e inject: the command gets the injected result" grep -qx 42 "$TMP/i.out"
check "strace_daemon: -D -e inject: the line says so" \
	grep -qx 'getppid() *= 42 (INJECTED)' "$TMP/i.txt"

# -c: the summary, from the recorder.
"$SONDE" strace -D -c -o "$TMP/c.txt" -- sh -c 'true' | cat
check "strace_daemon: -D -c: the summary has the command's execve" \
	grep -qE ' 1 +execve$' "$TMP/c.txt"

# A recorder that cannot start (its trace file cannot be created) says
# why, then the command, still waiting, exits 1 without running.
bash -c '"$0" strace -D --trace-file "$1/no/such/dir/t.sonde" -- sh -c "echo RAN"; echo "status $?"' \
	"$SONDE" "$TMP" 2>&1 | cat > "$TMP/f.out"
check "strace_daemon: -D: a recorder that fails says why, then the command exits 1 unrun" \
	test "$(sed -n '1s/:.*//p; 2p' "$TMP/f.out" | tr '\n' '|')" = "sonde strace|status 1|"

# What strace refuses, sonde too (status 2); a command not found.
"$SONDE" strace -D -p 1 > /dev/null 2> "$TMP/r1.err"
check "strace_daemon: -D with -p is refused" test $? -eq 2 -a -s "$TMP/r1.err"
"$SONDE" strace -DDDD true > /dev/null 2> "$TMP/r2.err"
check "strace_daemon: -DDDD is refused" test $? -eq 2 -a -s "$TMP/r2.err"
"$SONDE" strace --daemonize=process_group true > /dev/null 2> "$TMP/r3.err"
check "strace_daemon: an unknown --daemonize= is refused" \
	grep -q 'grandchild, pgroup (pgrp) or session' "$TMP/r3.err"
"$SONDE" strace -D -o /dev/null no-such-command-xyz 2> "$TMP/r4.err"
check "strace_daemon: -D: a command not found is said, status 127" \
	test $? -eq 127 -a "$(cat "$TMP/r4.err")" = "sonde strace: no-such-command-xyz: command not found"
