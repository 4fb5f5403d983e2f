#!/usr/bin/env bash
# Personality suffixes in syscall sets (-e trace=open@64, @32, @x32), as
# Debian's strace 6.1 takes them: tests/fixtures/i386_calls.S (a 32-bit
# program whose child execs a 64-bit one), i386_int80.S (i386 and x86-64
# calls in one 64-bit program, some of one name: getpid) and x32_calls.S
# (x32 numbers, which this kernel refuses). Compared line for line in
# -e trace=, -e raw=, -e abbrev= and -c, and what the recorder keeps.
. "$(dirname "$0")/lib.sh"
need_root
need_strace
L=tests/integration/strace_lines.py
build() { # NAME CC-FLAGS...: tests/fixtures/NAME.S into $TMP/NAME
	local name=$1
	shift
	cc "$@" -nostdlib -static -o "$TMP/$name" "tests/fixtures/$name.S" 2> "$TMP/cc.err" &&
		return 0
	notok "strace_pers: cannot build $name: $(head -1 "$TMP/cc.err")"
	exit 1
}
build i386_calls -m32
build i386_int80 -no-pie
build x32_calls -no-pie

# compare PROG NAME ARGS...: strace and sonde strace, -f -o, same options.
compare() {
	local prog=$1 name=$2
	shift 2
	# env -i, -e signal=none: as strace_i386.sh (the environment -v
	# shows, SIGCHLD's racing place).
	(cd "$TMP" && env -i strace -f -e signal=none -o ref "$@" "./$prog" > /dev/null 2>&1)
	(cd "$TMP" && env -i "$SONDE" strace -f -e signal=none -o got "$@" "./$prog" > /dev/null 2>&1)
	python3 $L --order "$TMP/ref" | sort -s -k1,1 > "$TMP/ref.n"
	python3 $L --order "$TMP/got" | sort -s -k1,1 > "$TMP/got.n"
	same "strace_pers: $prog $name as strace" "$TMP/ref.n" "$TMP/got.n"
}
# The 32-bit parent's calls against its 64-bit child's, and twins
# (read, openat, close, brk, execve: one recorded number for both).
compare i386_calls "read@32,openat@64" -e trace=read@32,openat@64
compare i386_calls "openat@32,read@64,close@32" -e trace=openat@32,read@64,close@32
check "strace_pers: openat@32 kept the 32-bit parent's two only" \
	[ "$(grep -c '^T0 openat(' "$TMP/got.n")" = 2 ] && [ "$(grep -c ' openat(' "$TMP/got.n")" = 2 ]
compare i386_calls "execve@32" -e trace=execve@32
compare i386_calls "brk@64,mmap2@32" -e trace=brk@64,mmap2@32
compare i386_calls "%file@32" -e trace=%file@32
compare i386_calls "%desc@64" -e trace=%desc@64
compare i386_calls "/^(f|l)?stat@32" -e 'trace=/^(f|l)?stat@32'
compare i386_calls "!%file@64,%desc@32" -e 'trace=!%file@64,%desc@32'
compare i386_calls "all@32" -e trace=all@32
compare i386_calls "numbers: 3 (x86-64 close, i386 read)" -e trace=3
compare i386_calls "3@64,5@32" -e trace=3@64,5@32
compare i386_calls "-e raw=read@32" -e trace=read -e raw=read@32
compare i386_calls "-e abbrev=fstat@32 -v" -e trace=%fstat -e abbrev=fstat@32
compare i386_calls "?fstat64@64,getuid32@32" -e 'trace=?fstat64@64,getuid32@32'
# int $0x80's getpid and fstat64 among x86-64 getpid and fstat.
for set in getpid@64 getpid@32 '!getpid@64' fstat64@32 %fstat@64 %fstat@32 \
	/stat@32 5 20 5@64 all@64 getpid@32,all@64; do
	compare i386_int80 "$set" -e "trace=$set"
done
compare i386_int80 "-e raw=fstat@64" -e raw=fstat@64
check "strace_pers: int80 raw=fstat@64 left fstat64 decoded" \
	grep -q '^T0 fstat64(1, {st_mode=' "$TMP/got.n"

# -c: the counts of the calls selected, in strace's two tables (x86-64's,
# then "System call usage summary for 32 bit mode:"), compared by name,
# calls and errors (the times differ).
counts() { # FILE: "TABLE name calls errors" rows of a -c report
	awk 'BEGIN { t = 64 } /^System call usage summary for 32 bit mode:$/ { t = 32 }
		$NF != "total" && $NF != "syscall" && $1 ~ /^[0-9.]+$/ \
		{ print t, $NF, $4, (NF == 6 ? $5 : 0) }' "$1" | sort
}
count_cmp() { # PROG SET
	(cd "$TMP" && strace -f -c -o ref -e "trace=$2" "./$1" > /dev/null 2>&1)
	(cd "$TMP" && "$SONDE" strace -f -c -o got -e "trace=$2" "./$1" > /dev/null 2>&1)
	counts "$TMP/ref" > "$TMP/ref.c"
	counts "$TMP/got" > "$TMP/got.c"
	same "strace_pers: $1 -c -e trace=$2 as strace" "$TMP/ref.c" "$TMP/got.c"
}
for set in getpid@64 getpid@32 fstat@64,getpid@32 fstat64,getpid all; do
	count_cmp i386_int80 "$set"
done
check "strace_pers: -c's second table is the 32-bit one" \
	grep -q '^32 fstat64 1 0$' "$TMP/got.c"
for set in all %file %desc@32 'read,close@64'; do
	count_cmp i386_calls "$set"
done

# x32: sonde shows each as syscall_0x4000NNNN (it has no x32 decoders):
# named here as strace names them, then compared by name and result.
x32names() { # FILE
	sed -E 's/^syscall_0x40000027\(/getpid(/; s/^syscall_0x40000005\(/fstat(/;
		s/^syscall_0x40000200\(/rt_sigaction(/; s/^syscall_0x4000000d\(/rt_sigaction#64(/;
		s/\(.*\) += /() = /; s/= [0-9]+$/= PID/; /^\+\+\+/d' "$1"
}
for set in getpid@x32 getpid 39@x32 rt_sigaction@x32 'rt_sigaction#64@x32' %signal@x32 \
	'!getpid@64' getpid@64,fstat@x32; do
	(cd "$TMP" && strace -o ref -e "trace=$set" ./x32_calls > /dev/null 2>&1)
	(cd "$TMP" && "$SONDE" strace -o got -e "trace=$set" ./x32_calls > /dev/null 2>&1)
	x32names "$TMP/ref" > "$TMP/ref.x"
	x32names "$TMP/got" > "$TMP/got.x"
	same "strace_pers: x32_calls $set selects as strace" "$TMP/ref.x" "$TMP/got.x"
done

# What is recorded: the kernel-side filter keeps the personality's calls.
"$SONDE" record -q -e trace=getpid@32,fstat@64 -o "$TMP/t" -- "$TMP/i386_int80" > /dev/null 2>&1
"$SONDE" print --json "$TMP/t" > "$TMP/j" 2> /dev/null
check "strace_pers: record -e trace=getpid@32,fstat@64 keeps those two" \
	[ "$(grep -o '"name":"[a-z0-9_]*"' "$TMP/j" | tr '\n' ' ')" = '"name":"getpid" "name":"fstat" ' ]
check "strace_pers: the getpid recorded is the i386 one" \
	grep -q '"name":"getpid",.*"i386":true' "$TMP/j"
"$SONDE" record -q -e trace=getpid@x32 -o "$TMP/t" -- "$TMP/x32_calls" > /dev/null 2>&1
"$SONDE" print --strace "$TMP/t" > "$TMP/p" 2> /dev/null
check "strace_pers: record -e trace=getpid@x32 keeps the x32 call only" \
	[ "$(grep -c '(' "$TMP/p")" = 1 ] && grep -q '^[0-9]* *syscall_0x40000027(' "$TMP/p"

# What strace refuses, sonde refuses (status 2, the reason said).
for set in fstat64@64 fstat64@x32 open@16 'open@' getpid@64@32 none@64 getpid,none 400@64; do
	"$SONDE" strace -e "trace=$set" true > /dev/null 2> "$TMP/err"
	rc=$?
	strace -e "trace=$set" true > /dev/null 2>&1
	ref=$?
	check "strace_pers: -e trace=$set refused as strace ($rc, $ref)" \
		[ "$rc" = 2 ] && [ "$ref" = 1 ] && [ -s "$TMP/err" ]
done
exit 0
