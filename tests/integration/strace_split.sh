#!/usr/bin/env bash
# strace's split of a call other tasks' lines interleave with:
# "read(3,  <unfinished ...>" ... "<... read resumed>"ping", 16) = 4",
# checked against Debian's strace on the same fixture
# (tests/fixtures/split_pipe.c: a read another thread's write completes),
# live (`sonde strace -f`) and offline (`sonde print --strace`); a shell's
# wait4 for a child that runs 0.3 s, offline.
. "$(dirname "$0")/lib.sh"
need_root
F=$FIX/split_pipe

# split_lines FILE: the read's two halves, pid and padding removed.
split_lines() {
	sed -nE 's/^[0-9]+ +//; s/\) += /) = /; /^read\(3,  <unfinished|^<\.\.\. read resumed>/p' "$1"
}
# interleaved FILE: both halves carry the same pid, and a line of another
# task sits between them.
interleaved() {
	awk '/read\(3,  <unfinished/ { t = $1; open = 1; next }
	     open && $1 != t { other = 1 }
	     open && /<\.\.\. read resumed>/ { ok = ($1 == t && other); open = 0 }
	     END { exit ok ? 0 : 1 }' "$1"
}
want='read(3,  <unfinished ...>
<... read resumed>"ping", 16) = 4'

if command -v strace > /dev/null; then
	strace -f -o "$TMP/ref.out" "$F"
	check "strace_split: Debian's strace splits the fixture's read" \
		[ "$(split_lines "$TMP/ref.out")" = "$want" ]
fi

$SONDE strace -f -o "$TMP/live.out" --trace-file "$TMP/t.sonde" "$F" 2> "$TMP/err"
check "strace_split: sonde strace exits 0" [ $? = 0 ]
check "strace_split: live: the read is split as strace splits it" \
	[ "$(split_lines "$TMP/live.out")" = "$want" ]
check "strace_split: live: the halves belong to the reader, the writer's lines between" \
	interleaved "$TMP/live.out"
$SONDE print --strace "$TMP/t.sonde" > "$TMP/off.out"
check "strace_split: offline: the same split" [ "$(split_lines "$TMP/off.out")" = "$want" ]
check "strace_split: offline: the writer's lines between" interleaved "$TMP/off.out"
check "strace_split: the write line is the writer's" \
	grep -qE '^[0-9]+ +write\(4, "ping", 4(\) += 4| <unfinished \.\.\.>)$' "$TMP/off.out"

# A shell waiting 0.3 s for its child: the child's lines come in between.
$SONDE record -q -o "$TMP/w.sonde" -- sh -c 'sleep 0.3; :' > /dev/null 2>&1
$SONDE print --strace "$TMP/w.sonde" > "$TMP/w.out"
sh_pid=$(awk 'NR == 1 { print $1 }' "$TMP/w.out")
check "strace_split: wait4's entering half" \
	grep -qE "^$sh_pid +wait4\(-1,  <unfinished \.\.\.>$" "$TMP/w.out"
check "strace_split: wait4 resumed with the status it returned" \
	grep -qE "^$sh_pid +<\.\.\. wait4 resumed>\[\{WIFEXITED\(s\) && WEXITSTATUS\(s\) == 0\}\], 0, NULL\) += [0-9]+$" "$TMP/w.out"
check "strace_split: the child's nanosleep between the halves" \
	awk -v p="$sh_pid" '$1 == p && /wait4\(-1,  </ { o = 1 } o && $1 != p && /nanosleep/ { n = 1 }
		$1 == p && /wait4 resumed/ { exit n ? 0 : 1 }' "$TMP/w.out"

# An ioctl that writes its argument (tests/fixtures/split_notif.c: a
# seccomp listener's SECCOMP_IOCTL_NOTIF_RECV, blocked while the other
# thread calls getpid): its entering half ends at the ", " before the
# struct, which comes after "<... ioctl resumed>", as strace prints it.
notif_ok() {
	awk '/ioctl\([0-9]+, SECCOMP_IOCTL_NOTIF_RECV,  <unfinished \.\.\.>$/ { t = $1; o = 1; next }
	     o && $1 != t && /getpid\(\)/ { g = 1 }
	     o && $1 == t && /<\.\.\. ioctl resumed>\{id=0x[0-9a-f]+, pid=[0-9]+, flags=0, data=\{nr=__NR_getppid, / { ok = g; o = 0 }
	     END { exit ok ? 0 : 1 }' "$1"
}
if command -v strace > /dev/null; then
	strace -f -o "$TMP/n.ref" "$FIX/split_notif"
	check "strace_split: Debian's strace splits SECCOMP_IOCTL_NOTIF_RECV so" notif_ok "$TMP/n.ref"
fi
$SONDE strace -f -o "$TMP/n.live" --trace-file "$TMP/n.sonde" "$FIX/split_notif" 2> "$TMP/err"
check "strace_split: live: SECCOMP_IOCTL_NOTIF_RECV split before its struct" notif_ok "$TMP/n.live"
$SONDE print --strace "$TMP/n.sonde" > "$TMP/n.off"
check "strace_split: offline: the same" notif_ok "$TMP/n.off"
