#!/usr/bin/env bash
# i386 system calls (events.h, SONDE_SC_COMPAT) against Debian's strace
# 6.1: tests/fixtures/i386_calls.S, built here with cc -m32 -nostdlib
# -static (a 32-bit program needs no 32-bit C library that way), makes
# calls recorded as their x86-64 twin (openat, read, socket), calls of
# the i386 layout (fstat64, _llseek, mmap2, readv, ugetrlimit, waitpid),
# calls of another name (getuid32, clock_getres_time64, futex_time64),
# and fails some. Compared line for line, normalised by strace_lines.py,
# in several option modes; then what the trace and the filters see.
. "$(dirname "$0")/lib.sh"
need_root
need_strace
X=$TMP/i386_calls
if ! cc -m32 -nostdlib -static -o "$X" tests/fixtures/i386_calls.S 2> "$TMP/cc.err"; then
	notok "strace_i386: cannot build a 32-bit program: $(head -1 "$TMP/cc.err")"
	exit 1
fi
L=tests/integration/strace_lines.py

# compare NAME ARGS...: strace and sonde strace, -f -o, same options.
compare() {
	local name=$1
	shift
	# env -i: the environment -v shows is the same in both ("_" is
	# the path of the tracer otherwise).
	# -e signal=none: where SIGCHLD lands among the parent's calls is a
	# race (docs/strace-differences.md, class 1).
	(cd "$TMP" && env -i strace -f -e signal=none -o ref "$@" "$X" > /dev/null 2>&1)
	(cd "$TMP" && env -i "$SONDE" strace -f -e signal=none -o got "$@" "$X" > /dev/null 2>&1)
	# Each process's lines together, in their order: whether the
	# child's exit is logged before the parent's fork returns is timing.
	python3 $L --order "$TMP/ref" | sort -s -k1,1 > "$TMP/ref.n"
	python3 $L --order "$TMP/got" | sort -s -k1,1 > "$TMP/got.n"
	same "strace_i386: $name as strace" "$TMP/ref.n" "$TMP/got.n"
}
compare "default"
check "strace_i386: the i386 calls are in the log" \
	grep -q 'fstat64(3, {st_mode=S_IFCHR|0666' "$TMP/got.n"
compare "-v" -v
compare "-y" -y
compare "-X raw" -X raw
compare "-X verbose" -X verbose
compare "-s 2" -s 2
compare "-e trace=i386 names" -e trace=fstat64,_llseek,getuid32,mmap2
check "strace_i386: -e trace=fstat64 kept both fstat64 calls" \
	[ "$(grep -c ' fstat64(' "$TMP/got.n")" = 2 ]
compare "-e trace=%stat,%fstat" -e 'trace=%stat,%fstat'
compare "-e trace=twins" -e trace=read,openat,close
compare "-e trace=!i386" -e 'trace=!fstat64,stat64,lstat64,fstatat64,_llseek,mmap2'
compare "-Z" -Z
compare "-e verbose=none" -e verbose=none
compare "-e verbose=%stat,mmap2" -e 'verbose=%stat,mmap2'

# int $0x80 in a 64-bit program: i386 calls between x86-64 ones.
if cc -nostdlib -static -no-pie -o "$TMP/int80" tests/fixtures/i386_int80.S 2> "$TMP/cc.err"; then
	strace -f -o "$TMP/ref" "$TMP/int80" > /dev/null 2>&1
	"$SONDE" strace -f -o "$TMP/got" "$TMP/int80" > /dev/null 2>&1
	python3 $L --order "$TMP/ref" > "$TMP/ref.n"
	python3 $L --order "$TMP/got" > "$TMP/got.n"
	same "strace_i386: int \$0x80 from 64-bit code as strace" "$TMP/ref.n" "$TMP/got.n"
	grep -A1 '^T0 fstat64(1, {st_mode=' "$TMP/got.n" | tail -1 > "$TMP/next"
	check "strace_i386: int \$0x80's fstat64, then the x86-64 fstat" \
		grep -q '^T0 fstat(1, {st_mode=' "$TMP/next"
else
	notok "strace_i386: cannot build tests/fixtures/i386_int80.S: $(head -1 "$TMP/cc.err")"
fi

# The record: the i386 flag, JSON names and decoded members.
"$SONDE" record -q -o "$TMP/t" -- "$X" > /dev/null 2>&1
"$SONDE" print --json "$TMP/t" > "$TMP/j" 2> /dev/null
check "strace_i386: JSON names fstat64 and decodes it" \
	grep -q '"name":"fstat64".*"st_mode":' "$TMP/j"
check "strace_i386: JSON names getuid32" grep -q '"name":"getuid32"' "$TMP/j"
check "strace_i386: JSON marks the i386 calls, twins included" \
	grep -q '"name":"openat",.*"i386":true' "$TMP/j"
check "strace_i386: sonde stat counts the i386 calls by name" \
	sh -c "'$SONDE' stat '$TMP/t' | grep -q '_llseek'"
# In-kernel selection by i386 name: only those calls are recorded.
"$SONDE" record -q -e trace=mmap2,getuid32 -o "$TMP/t2" -- "$X" > /dev/null 2>&1
"$SONDE" print --strace "$TMP/t2" > "$TMP/p2" 2> /dev/null
grep -E '^[0-9]+ +[a-z_0-9]+\(' "$TMP/p2" | sed -E 's/^[0-9]+ +//; s/\(.*//' > "$TMP/p2.calls"
check "strace_i386: record -e trace=mmap2,getuid32 keeps those only" \
	[ "$(tr '\n' ' ' < "$TMP/p2.calls")" = "mmap2 getuid32 " ]

# The script language's syscall provider knows x86-64 calls only: 32-bit
# code fires none of its probes, live or offline (docs/lang.md); before,
# its calls fired the probes of the x86-64 calls of the same numbers.
S='syscall:::entry /execname == "i386_calls"/ { @[probefunc] = count(); }'
"$SONDE" script -c "$X" "$S" > "$TMP/live.s" 2> /dev/null
"$SONDE" script -r "$TMP/t" "$S" > "$TMP/off.s" 2> /dev/null
check "strace_i386: script: no syscall probe fires for 32-bit code, live" \
	[ "$(grep -c '[0-9]$' "$TMP/live.s")" = 0 ]
check "strace_i386: script: nor offline" [ "$(grep -c '[0-9]$' "$TMP/off.s")" = 0 ]
