#!/usr/bin/env bash
# strace -k: each call's stack, against Debian's strace 6.1 (libunwind
# build). Both write one file per task (-ff -ttt), compared task by task
# in start order after normalising pids and addresses (ff_norm; the stack
# lines carry file offsets, which do not move with the address space).
# Then: record --user-stack and print --strace -k (as live), the JSON
# "stack", print -k of a trace without stacks (a warning), -p, a C++
# program (demangled names), the --user-stack and -k option errors.
. "$(dirname "$0")/lib.sh"
need_root
need_strace
F=$FIX/strace_stack

# compare NAME ARGS...: strace -ff -k and sonde strace -ff -k of ARGS
# (options, then the command).
compare() {
	local name=$1
	shift
	ff_run -k "$@"
	ff_norm "$TMP/a" > "$TMP/a.n"
	ff_norm "$TMP/b" > "$TMP/b.n"
	same "strace_stack: $name as strace" "$TMP/a.n" "$TMP/b.n"
}

compare "-k (nested calls, a signal, a thread, ~100 KiB deep, exec, exit)" "$F"
cp "$TMP/b.n" "$TMP/live.n"
check "strace_stack: the handler's call unwinds through the signal frame" \
	grep -qE '^ > .*strace_stack\(on_usr1\+0x[0-9a-f]+\)' "$TMP/live.n"
check "strace_stack: the deepest call shows its 100 recursive frames" \
	test "$(grep -c 'strace_stack(deep+' "$TMP/live.n")" -ge 101
# the child's execve (the first task's is sonde's or strace's launch,
# printed as the new program starts)
awk '/^== task/ { t++ } t >= 2 && /^execve\(/ { getline; print; exit }' "$TMP/live.n" \
	> "$TMP/exec.1"
check "strace_stack: the child's execve shows its caller's stack (before the exec)" \
	grep -q 'libc.so.6(execve+0x' "$TMP/exec.1"
compare "-k -e trace=getpid,getuid,read" -e trace=getpid,getuid,read "$F"
# Real programs (single processes: where a SIGCHLD lands is a race)
compare "-k of ls -la" ls -la /etc/hostname /usr/lib/x86_64-linux-gnu
compare "-k of tar" tar cf "$TMP/x.tar" -C tests/fixtures strace_stack.c
compare "-k of cat" cat tests/fixtures/strace_stack.c

# Recorded while printed (--trace-file), then printed: the same lines.
# A call that blocks longer than the live reorder window (the join's
# futex, the thread's 200 ms sleep when the main thread's calls land in
# it) is printed whole at its return by live where print splits it
# (docs/strace-differences.md): both are compared with each split call
# joined where it resumed, its stack after it.
join_split() {
	python3 - "$1" <<'PY'
import re, sys
held = {}
for line in open(sys.argv[1]):
    line = re.sub(r"\s+= ", " = ", line.rstrip("\n"))
    m = re.match(r"^(\d+) (.*) <unfinished \.\.\.>$", line)
    if m:
        held[m.group(1)] = m.group(2)
        continue
    m = re.match(r"^(\d+) <\.\.\. \w+ resumed>(.*)$", line)
    if m and m.group(1) in held:
        line = "%s %s%s" % (m.group(1), held.pop(m.group(1)), m.group(2))
    print(line)
PY
}
"$SONDE" strace -f -k -e trace='!futex' --trace-file "$TMP/t.trace" -o "$TMP/live" "$F" \
	> /dev/null 2>&1
"$SONDE" print --strace -k -e trace='!futex' "$TMP/t.trace" > "$TMP/print" 2> "$TMP/print.err"
join_split "$TMP/live" > "$TMP/live.j"
join_split "$TMP/print" > "$TMP/print.j"
same "strace_stack: print --strace -k of the trace as sonde strace -k printed it" \
	"$TMP/live.j" "$TMP/print.j"
check "strace_stack: no warning when every call has its stack" test ! -s "$TMP/print.err"
"$SONDE" record -q --user-stack -o "$TMP/k.trace" "$F" > /dev/null 2>&1

# JSON: the frames of the text, as objects.
"$SONDE" print --json -k "$TMP/k.trace" > "$TMP/k.json"
python3 - "$TMP/k.json" > "$TMP/json.out" <<'EOF'
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
uid = [o for o in objs if o.get('name') == 'getuid']
sig = [o for o in objs if o['type'] == 'signal' and o.get('signal') == 'SIGUSR1']
ex = [o for o in objs if o.get('name') == 'execve' and o.get('pid') != objs[0].get('pid')]
ok = (len(uid) == 1 and
      [f.get('symbol') for f in uid[0]['stack']].count('deep') == 101 and
      all('module' in f and f['file_offset'].startswith('0x') for f in uid[0]['stack']) and
      len(sig) == 1 and sig[0]['stack'][0]['module'].endswith('libc.so.6') and
      any(f.get('symbol') == 'main' for f in sig[0]['stack']) and
      all('stack' not in str(p.get('phase')) for o in objs for p in o.get('payload', [])))
print('ok' if ok else 'bad')
EOF
check "strace_stack: JSON stacks of a call and of the signal" grep -qx ok "$TMP/json.out"

# -Z: only failed calls are recorded, each with its stack (read(-1) in
# hole_below, under a 64 KiB buffer the program never touched).
"$SONDE" record -q -Z --user-stack -o "$TMP/z.trace" "$F" > /dev/null 2>&1
"$SONDE" print --strace -k "$TMP/z.trace" > "$TMP/z" 2> /dev/null
awk '/ read\(-1, / { getline; getline; print; exit }' "$TMP/z" > "$TMP/z.2"
check "strace_stack: record -Z --user-stack: the failed read's stack" \
	grep -q 'strace_stack(hole_below+0x' "$TMP/z.2"

# A trace without stacks: -k says how to get them.
"$SONDE" record -q -o "$TMP/nok.trace" "$F" > /dev/null 2>&1
"$SONDE" print --strace -k "$TMP/nok.trace" > "$TMP/nok" 2> "$TMP/nok.err"
rc=$?
check_all "strace_stack: print -k of a trace without stacks: the lines and a warning" \
	[ $rc = 0 ] '&&' grep -q '^[0-9]* *getuid()' "$TMP/nok" '&&' \
	grep -q "sonde record --user-stack" "$TMP/nok.err" '&&' \
	test "$(grep -c '^ > ' "$TMP/nok")" = 0

# -p: the mapped files come from /proc/PID/maps; the stack of a call made
# after the attach is strace's.
cat > "$TMP/loop.c" <<'EOF'
#include <unistd.h>
__attribute__((noinline)) static void tick(void) { getppid(); }
int main(void) { for (int i = 0; i < 100; i++) { tick(); usleep(20000); } return 0; }
EOF
if cc -O1 -o "$TMP/loop" "$TMP/loop.c"; then
	"$TMP/loop" &
	P=$!
	sleep 0.2
	strace -k -e trace=getppid -p $P -o "$TMP/pa" > /dev/null 2>&1 &
	S=$!
	"$SONDE" strace -k -e trace=getppid -p $P -o "$TMP/pb" > /dev/null 2>&1 &
	Q=$!
	sleep 0.8
	kill -INT $S $Q 2> /dev/null
	wait $S $Q 2> /dev/null
	kill $P 2> /dev/null
	wait $P 2> /dev/null
	# the second getppid's stack of each (the first may be cut by the attach)
	awk '/^getppid/ { n++ } n == 2 && /^ > / { print } n > 2 { exit }' "$TMP/pa" > "$TMP/pa.s"
	awk '/^getppid/ { n++ } n == 2 && /^ > / { print } n > 2 { exit }' "$TMP/pb" > "$TMP/pb.s"
	same "strace_stack: -p: a call's stack as strace's" "$TMP/pa.s" "$TMP/pb.s"
else
	notok "strace_stack: cannot build the -p test program (cc)"
fi

# C++: names demangled, as strace's stack-demangle build prints them.
cat > "$TMP/cxx.cc" <<'EOF'
#include <unistd.h>
namespace ns {
struct Probe {
	__attribute__((noinline)) int call(int x) { return (int)getppid() + x; }
};
}
int main() { ns::Probe p; return p.call(1) < 0; }
EOF
if command -v g++ > /dev/null && g++ -O1 -o "$TMP/cxx" "$TMP/cxx.cc"; then
	compare "-k of a C++ program" -e trace=getppid "$TMP/cxx"
	check "strace_stack: C++ names demangled" grep -qF '(ns::Probe::call(int)+' "$TMP/b.n"
else
	notok "strace_stack: g++ is not installed (make deps installs it)"
fi

# Option errors name the fix.
"$SONDE" record --user-stack=0 -o "$TMP/x.trace" true > /dev/null 2> "$TMP/e1"
r1=$?
"$SONDE" record --user-stack=2M -o "$TMP/x.trace" true > /dev/null 2> "$TMP/e2"
r2=$?
"$SONDE" print -k "$TMP/k.trace" > /dev/null 2> "$TMP/e3"
r3=$?
check_all "strace_stack: --user-stack sizes out of range and print -k without --strace fail" \
	[ $r1 != 0 ] '&&' [ $r2 != 0 ] '&&' [ $r3 != 0 ] '&&' \
	grep -q "8 to 1M" "$TMP/e1" '&&' grep -q "8 to 1M" "$TMP/e2" '&&' \
	grep -q -- "--strace and --json" "$TMP/e3"
