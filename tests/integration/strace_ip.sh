#!/usr/bin/env bash
# strace -i: each line's instruction pointer, against Debian's strace 6.1.
# Address-space randomisation is turned off for both runs (setarch -R), so
# the traced program's libraries sit at the same addresses under either
# tracer and the addresses compare as they are. The first execve is the
# tracer's own child's (strace's or sonde's launcher code): left out.
# Then: record --ip and print --strace -i (the same lines as live), a
# trace without --ip (question marks and a warning), -i with -n, the
# JSON "ip" fields, -Z, a call already blocked at -p's attach, and an
# i386 program (8-digit addresses).
. "$(dirname "$0")/lib.sh"
need_root
need_strace
need_cmd setarch "setarch (util-linux) is not installed"
F=$FIX/strace_ip
L=tests/integration/strace_lines.py

# lines LOG: the log normalised (tasks named in order of appearance), the
# first execve left out, each task's lines together in their order
# (whether the child's first call is logged before its parent's fork
# returns is timing).
lines() {
	python3 $L --order "$1" | tail -n +2 | sort -s -k1,1
}
# compare NAME ARGS...: strace and sonde strace -f -i ARGS on the fixture.
compare() {
	local name=$1
	shift
	# 2>: the fixture ends killed, which bash reports.
	(cd "$TMP" && setarch -R strace -f -i "$@" -o ref "$F" > /dev/null) 2> /dev/null
	(cd "$TMP" && setarch -R "$SONDE" strace -f -i "$@" -o got "$F" > /dev/null) 2> /dev/null
	lines "$TMP/ref" > "$TMP/ref.n"
	lines "$TMP/got" > "$TMP/got.n"
	same "strace_ip: $name as strace" "$TMP/ref.n" "$TMP/got.n"
}
compare "-i"
cp "$TMP/got" "$TMP/live"
check "strace_ip: the signal delivered in read is at read's address" \
	grep -qE '^T0 \[([0-9a-f]{16})\] --- SIGALRM ' "$TMP/got.n"
r=$(grep -E '^T0 \[[0-9a-f]{16}\] read\(3, 0xADDR, 1\)' "$TMP/got.n" | cut -d' ' -f2)
a=$(grep -E '^T0 \[[0-9a-f]{16}\] --- SIGALRM' "$TMP/got.n" | cut -d' ' -f2)
s=$(grep -E '^T0 \[[0-9a-f]{16}\] rt_sigreturn' "$TMP/got.n" | cut -d' ' -f2)
check_all "strace_ip: SIGALRM at read's address, rt_sigreturn at its own" \
	[ -n "$r" ] '&&' [ "$r" = "$a" ] '&&' [ -n "$s" ] '&&' [ "$s" != "$r" ]
check "strace_ip: exit lines have no address" \
	grep -qF '[????????????????] +++ killed by SIGTERM +++' "$TMP/got.n"
compare "-i -n" -n
compare "-i -e trace=read,kill" -e trace=read,kill

# The same run recorded, then printed.
(cd "$TMP" && setarch -R "$SONDE" record -q --ip -o ip.trace "$F" > /dev/null) 2> /dev/null
"$SONDE" print --strace -i "$TMP/ip.trace" > "$TMP/print" 2> "$TMP/print.err"
lines "$TMP/live" > "$TMP/live.n"
lines "$TMP/print" > "$TMP/print.n"
same "strace_ip: print --strace -i of record --ip as sonde strace -i" "$TMP/live.n" "$TMP/print.n"
check "strace_ip: no warning when every call has its address" \
	test ! -s "$TMP/print.err"

# Recorded without --ip: strace's question marks on every call, and a
# warning that says how to record them (a delivered signal's address is
# in every trace).
(cd "$TMP" && "$SONDE" record -q -o noip.trace "$F" > /dev/null) 2> /dev/null
"$SONDE" print --strace -i "$TMP/noip.trace" > "$TMP/noip" 2> "$TMP/noip.err"
rc=$?
check_all "strace_ip: print -i of a trace without --ip: ?s and a warning naming --ip" \
	[ $rc = 0 ] '&&' grep -qF '[????????????????] getppid()' "$TMP/noip" '&&' \
	grep -q 'sonde record --ip' "$TMP/noip.err" '&&' \
	test "$(grep -cE '\[0000[0-9a-f]+\] [a-z_0-9]+\(' "$TMP/noip")" = 0

# JSON: the call's and the delivered signal's addresses, as the text has
# them; the address is not a payload.
"$SONDE" print --json --payload=hex "$TMP/ip.trace" > "$TMP/json"
python3 - "$TMP/json" "$r" "$s" > "$TMP/json.out" <<'EOF'
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
read = [o for o in objs if o.get('name') == 'read' and o.get('errno') == 'ERESTARTSYS']
sret = [o for o in objs if o.get('name') == 'rt_sigreturn']
sig = [o for o in objs if o['type'] == 'signal' and o.get('signal') == 'SIGALRM']
ok = (len(read) == 1 and int(read[0]['ip'], 16) == int(sys.argv[2].strip('[]'), 16) and
      len(sret) == 1 and int(sret[0]['ip'], 16) == int(sys.argv[3].strip('[]'), 16) and
      len(sig) == 1 and int(sig[0]['ip'], 16) == int(sys.argv[2].strip('[]'), 16) and
      all(p['phase'] in ('entry', 'exit', 'fdinfo', 'sockinfo', 'fdpath')
          for o in objs for p in o.get('payload', [])))
print('ok' if ok else 'bad')
EOF
check "strace_ip: JSON ip of the read, rt_sigreturn and SIGALRM" grep -qx ok "$TMP/json.out"

# -Z: only the failed calls are recorded, each with its address.
(cd "$TMP" && setarch -R "$SONDE" record -q --ip -Z -o z.trace "$F" > /dev/null) 2> /dev/null
"$SONDE" print --strace -i "$TMP/z.trace" > "$TMP/z" 2> /dev/null
fails='^T0 \[[0-9a-f]+\] [a-z_0-9]+\(.* = (-1|\?) '
grep -E "$fails" "$TMP/live.n" > "$TMP/live.fail"
python3 $L --order "$TMP/z" | grep -E "$fails" > "$TMP/z.fail"
same "strace_ip: record -Z --ip: the failed calls with their addresses" \
	"$TMP/live.fail" "$TMP/z.fail"

# -p: a call blocked when sonde attaches has the address /proc reports.
sleep 30 &
P=$!
for ((i = 0; i < 200; i++)); do
	grep -q '^230 ' "/proc/$P/syscall" 2>/dev/null && break
	sleep 0.01
done
pc=$(awk '{ print $NF }' "/proc/$P/syscall")
"$SONDE" record -q --ip -p $P -o "$TMP/att.trace" -d 0.5 > /dev/null 2>&1
kill $P
wait $P 2> /dev/null
"$SONDE" print --strace -i "$TMP/att.trace" > "$TMP/att" 2> /dev/null
printf -v want '[%016x] clock_nanosleep(' "$pc"
check "strace_ip: -p: the call blocked at attach, at /proc's pc ($pc)" \
	grep -qF "$want" "$TMP/att"

# An i386 program: strace prints its addresses with 8 digits.
if cc -m32 -nostdlib -static -o "$TMP/i386" tests/fixtures/i386_calls.S 2> /dev/null; then
	# -e signal=none: where SIGCHLD lands among the parent's calls is a
	# race (docs/strace-differences.md, class 1)
	(cd "$TMP" && setarch -R strace -f -i -e signal=none -o iref ./i386 > /dev/null 2>&1)
	(cd "$TMP" && setarch -R "$SONDE" strace -f -i -e signal=none -o igot ./i386 \
		> /dev/null 2>&1)
	python3 $L --order "$TMP/iref" | tail -n +2 | sort -s -k1,1 > "$TMP/iref.n"
	python3 $L --order "$TMP/igot" | tail -n +2 | sort -s -k1,1 > "$TMP/igot.n"
	same "strace_ip: an i386 program as strace" "$TMP/iref.n" "$TMP/igot.n"
	check "strace_ip: i386 addresses have 8 digits" grep -qE '^T0 \[[0-9a-f]{8}\] getpid\(\)' "$TMP/igot.n"
else
	notok "strace_ip: cannot build a 32-bit program (cc -m32)"
fi
