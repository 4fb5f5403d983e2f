#!/usr/bin/env bash
# -e inject= and -e fault=, against Debian's strace 6.1 on
# tests/fixtures/inject_calls: the same calls tampered with (error=,
# retval=, when= ranges and steps counted per thread, delay_enter=,
# delay_exit=, poke_enter=, signal=, a later rule replacing an earlier
# one, -e trace= limiting what is tampered with), compared task by task
# (-ff) with strace's notes "(INJECTED)", "(INJECTED: args)",
# "(DELAYED)", and what the program saw (its stdout) compared too. Then
# the marks in a trace file (print --strace, --json), the long forms, and
# the option errors.
. "$(dirname "$0")/lib.sh"
need_root
need_strace
F=$FIX/inject_calls

# norm DIR: ff_norm, a signal's siginfo cut to its name (strace's injected
# signal is the kernel's, SI_KERNEL; sonde's is sent by its supervisor,
# SI_TKILL: docs/strace-differences.md).
norm() {
	ff_norm "$1" -e 's/^--- (SIG[A-Z0-9]+) \{.*\} ---$/--- \1 ---/'
}
# compare NAME OPTS...: strace -ff and sonde strace -ff with OPTS on the
# fixture: the lines, and the fixture's own output.
compare() {
	local name=$1
	shift
	ff_run "$@" "$F"
	norm "$TMP/a" > "$TMP/a.n"
	norm "$TMP/b" > "$TMP/b.n"
	same "strace_inject: $name as strace" "$TMP/a.n" "$TMP/b.n"
	same "strace_inject: $name: what the program saw" "$TMP/a.out" "$TMP/b.out"
}

compare "error= on the 2nd and 3rd chdir (when=2..3)" -e inject=chdir:error=ENOENT:when=2..3
check "strace_inject: the injected calls' note" \
	test "$(grep -c '^chdir("/") = -1 ENOENT (No such file or directory) (INJECTED)$' "$TMP/b.n")" = 3
compare "retval= on the 2nd getpid" -e inject=getpid:retval=42:when=2
compare "fault= (ENOSYS) from the 3rd chdir on (when=3+)" -e fault=chdir:when=3+
compare "each 2nd getppid of the thread from the 1st (when=1+2)" \
	-e inject=getppid:error=EPERM:when=1+2
compare "delay_enter= (DELAYED)" -e inject=chdir:delay_enter=20ms:when=1
compare "retval= with delay_exit=" -e inject=getpid:retval=42:delay_exit=1000:when=1
compare "poke_enter= (INJECTED: args)" -e inject=chdir:poke_enter=@arg1=2f746d70:when=1
check "strace_inject: the poked path is the one the call used" \
	grep -q '^chdir("/tmp") = 0 (INJECTED: args)$' "$TMP/b.n"
compare "poke_enter= with error=" -e inject=chdir:poke_enter=@arg1=2f746d70:error=EPERM:when=4
compare "signal= with error=" -e inject=getcwd:error=ERANGE:signal=USR1
compare "a later rule replaces an earlier one" \
	-e inject=chdir:error=EACCES -e inject=chdir:retval=3:when=2
compare "-e trace= leaves other calls alone" -e trace=getpid -e inject=chdir:error=EPERM
compare "--inject= and --fault=" --inject=getpid:retval=42 --fault=chdir:error=EIO:when=1

# The marks in the trace: print --strace as live (without the join's
# futex, which blocks longer than the live reorder window), JSON fields.
"$SONDE" strace -f -e inject=chdir:error=ENOENT:when=2 -e inject=getpid:delay_enter=1ms \
	-e trace='!futex' --trace-file "$TMP/i.trace" -o "$TMP/live" "$F" > /dev/null 2>&1
"$SONDE" print --strace -e trace='!futex' "$TMP/i.trace" > "$TMP/print" 2>&1
same "strace_inject: print --strace of the trace as sonde strace printed it" \
	"$TMP/live" "$TMP/print"
"$SONDE" print --json "$TMP/i.trace" > "$TMP/i.json"
python3 - "$TMP/i.json" > "$TMP/json.out" <<'EOF'
import json, sys
calls = [o for o in map(json.loads, open(sys.argv[1])) if o["type"] == "syscall"]
for name in ("chdir", "getpid"):
    print(name, [(c.get("injected", False), c.get("delayed", False), c.get("errno"))
                 for c in calls if c["name"] == name])
EOF
cat > "$TMP/json.want" <<'EOF'
chdir [(False, False, None), (True, False, 'ENOENT'), (False, False, None), (False, False, None), (False, False, None), (True, False, 'ENOENT')]
getpid [(False, True, None), (False, True, None)]
EOF
same "strace_inject: print --json: injected and delayed" "$TMP/json.want" "$TMP/json.out"

# Errors: status 2 and the reason, the command never started.
for bad in "-e inject=chdir" "-e inject=chdir:error=EPERM:retval=1" \
	"-e inject=chdir:when=0" "-e inject=chdir:error=ENOPE" "-e fault=chdir:retval=1" \
	"-e inject=chdir:poke_exit=@arg1=41" "-e inject=chdir:poke_enter=@arg9=41" \
	"-e inject=chdir:signal=SIGNOPE" "-e inject=chdir:syscall=chdir:error=EPERM" \
	"-P /tmp -e inject=chdir:error=EPERM" "-p 1 -e inject=chdir:error=EPERM"; do
	# shellcheck disable=SC2086
	"$SONDE" strace $bad /bin/true > "$TMP/bad.out" 2> "$TMP/bad.err"
	rc=$?
	check "strace_inject: '$bad' is refused (status 2, a reason)" \
		test "$rc" = 2 -a -s "$TMP/bad.err" -a ! -s "$TMP/bad.out"
done

# The command's own execve is not counted (strace starts tracing there):
# when=1 hits the shell's exec, when=2 nothing.
for w in 1 2; do
	strace -o /dev/null -e inject=execve:error=ENOENT:when=$w sh -c 'exec /bin/true' \
		> "$TMP/x.a" 2>&1
	a=$?
	"$SONDE" strace -o /dev/null -e inject=execve:error=ENOENT:when=$w sh -c 'exec /bin/true' \
		> "$TMP/x.b" 2>&1
	b=$?
	check "strace_inject: execve when=$w: status $a and output as strace" \
		test "$a" = "$b" -a "$(cat "$TMP/x.a")" = "$(cat "$TMP/x.b")"
done

# sonde record --inject / -e fault=: the same rules, the notes in print.
"$SONDE" record -q -o "$TMP/r.trace" --inject=chdir:error=ENOENT:when=2 -e fault=getpid:when=1 \
	-e trace=chdir,getpid -- "$F" > "$TMP/r.out" 2>&1
"$SONDE" print --strace "$TMP/r.trace" | sed -E 's/^[0-9]+ +//; s/\) += /) = /' | head -6 \
	> "$TMP/r.lines"
cat > "$TMP/r.want" <<'EOF2'
chdir("/") = 0
chdir("/") = -1 ENOENT (No such file or directory) (INJECTED)
chdir("/") = 0
chdir("/") = 0
getpid() = -1 ENOSYS (Function not implemented) (INJECTED)
getpid() = PID
EOF2
sed -i -E 's/^(getpid\(\) = )[0-9]+$/\1PID/' "$TMP/r.lines"
same "strace_inject: record --inject and -e fault=, print --strace" "$TMP/r.want" "$TMP/r.lines"
check "strace_inject: record: what the program saw" grep -q '^chdir: 0 -1 0 0$' "$TMP/r.out"
"$SONDE" record -q -o "$TMP/r2.trace" --comm x --fault=chdir > /dev/null 2> "$TMP/r.err"
check "strace_inject: record --fault with --comm is refused (status 2)" \
	test $? = 2 -a -s "$TMP/r.err"

# sonde stopped (SIGTERM) while it holds a call: the call is answered at
# once, sonde says the process is left under the filter, and the calls the
# filter names fail with ENOSYS from then on (seccomp's answer when no
# supervisor listens).
"$SONDE" strace -o "$TMP/held.s" -e inject=chdir:delay_enter=60s:when=1 "$F" \
	> "$TMP/held.out" 2> "$TMP/held.err" &
sp=$!
for ((i = 0; i < 200; i++)); do
	p=$(pgrep -x -P "$sp" inject_calls)
	[ -n "$p" ] && grep -q '^80 ' "/proc/$p/syscall" 2> /dev/null && break
	sleep 0.05
done
t0=$(date +%s)
kill -TERM "$sp"
wait "$sp"
rc=$?
for ((i = 0; i < 100; i++)); do
	grep -q '^child chdir' "$TMP/held.out" && break
	sleep 0.05
done
check_all "strace_inject: stopped while holding a call: exits at once (status $rc), says so" \
	[ "$rc" = 0 -a $(($(date +%s) - t0)) -lt 10 ] '&&' \
	grep -q 'still under the -e inject filter' "$TMP/held.err"
check "strace_inject: ... the held call ran, the later ones fail with ENOSYS" \
	grep -qz 'chdir: 0 -1 -1 -1.*child chdir: -1 -1' "$TMP/held.out"
