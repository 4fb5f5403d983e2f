#!/usr/bin/env bash
# execve argv strings that were not resident when the call entered (a
# string literal of a freshly forked child: fork does not copy the page
# tables of file-backed mappings) print as strace prints them, taken from
# the exec record the call produced: rec_seq's child execs rec_child with
# such strings. Compared with Debian's strace -f, live (sonde strace) and
# from a trace file (print --strace, print, print --json).
. "$(dirname "$0")/lib.sh"
need_root
command -v strace > /dev/null || { notok "strace_exec_argv: Debian's strace is not installed"; exit 1; }

# execve lines of a strace -f -o log, pids and the envp address left out.
execs() {
	strace_joined "$1" | sed -nE 's/^[0-9]+ (execve\(.*)$/\1/p' |
		sed -E 's/\], 0x[0-9a-f]+ \/\* [0-9]+ vars \*\/\)/], ENVP)/'
}

strace -f -o "$TMP/ref" "$FIX/rec_seq" "$TMP/facts" > /dev/null
$SONDE strace -f -o "$TMP/out" "$FIX/rec_seq" "$TMP/facts" > /dev/null
ref=$(execs "$TMP/ref")
out=$(execs "$TMP/out")
check "strace_exec_argv: strace shows rec_child's argv strings" \
	grep -qF '"rec_child", "hello", "world"' <<<"$ref"
check "strace_exec_argv: strace -f shows 2 execve lines" [ "$(grep -c . <<<"$ref")" = 2 ]
if [ "$ref" = "$out" ]; then
	ok "strace_exec_argv: sonde strace -f execve lines as strace's"
else
	notok "strace_exec_argv: execve lines differ: strace '$ref', sonde '$out'"
fi

$SONDE record -o "$TMP/t.sonde" -- "$FIX/rec_seq" "$TMP/facts" > /dev/null 2>&1
# The reproducer reproduces: the trace holds the strings as unreadable.
$SONDE print --json --payload=hex "$TMP/t.sonde" > "$TMP/j"
python3 - "$TMP/j" > "$TMP/jcheck" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o.get("name") != "execve" or "rec_child" not in o["argv"]["pathname"]:
        continue
    unread = [p for p in o["payload"] if p["name"] == "argv" and p["unreadable"]]
    print("unreadable", len(unread))
    print("argv", o["argv"]["argv"])
    print("from_exec", o.get("result", {}).get("argv_from_exec"))
PY
check "strace_exec_argv: the trace holds rec_child's argv strings as unreadable" \
	grep -qx "unreadable 3" "$TMP/jcheck"
check "strace_exec_argv: print --json argv has the strings" \
	grep -qxF "argv ['rec_child', 'hello', 'world']" "$TMP/jcheck"
check "strace_exec_argv: print --json says they came from the exec record" \
	grep -qxF "from_exec [0, 1, 2]" "$TMP/jcheck"
$SONDE print --strace "$TMP/t.sonde" > "$TMP/pstrace"
if [ "$(execs "$TMP/pstrace")" = "$ref" ]; then
	ok "strace_exec_argv: print --strace execve lines as strace's"
else
	notok "strace_exec_argv: print --strace: '$(execs "$TMP/pstrace")', strace '$ref'"
fi
check "strace_exec_argv: print text shows the strings" \
	grep -qF 'rec_child", ["rec_child", "hello", "world"], 0x' <($SONDE print "$TMP/t.sonde")

# An execve by a thread other than the leader: its arguments, read at
# entry under the thread's tid, belong to the call the leader's tid ends
# (live and from the trace file).
py='import os, threading
t = threading.Thread(target=lambda: os.execv("/bin/true", ["true", "x"]))
t.start(); t.join()'
$SONDE strace -f -e trace=execve -o "$TMP/th" --trace-file "$TMP/th.sonde" python3 -c "$py"
check "strace_exec_argv: execve by a thread: arguments decoded (sonde strace)" \
	grep -qE '^[0-9]+ +execve\("/bin/true", \["true", "x"\], 0x[0-9a-f]+ /\* [0-9]+ vars \*/' "$TMP/th"
check "strace_exec_argv: execve by a thread: arguments decoded (print --strace)" \
	grep -qE '^[0-9]+ +execve\("/bin/true", \["true", "x"\], 0x[0-9a-f]+ /\* [0-9]+ vars \*/' \
	<($SONDE print --strace -e trace=execve "$TMP/th.sonde")

# A failed execve returns in the caller's address space, where the kernel
# faulted the strings in reading them: the recorder reads them again at
# exit, and the line shows them as strace does (strace_proc exec: a
# fork's child execs "/nonexistent" with literals, then /bin/true).
strace -f -o "$TMP/fref" "$FIX/strace_proc" exec > /dev/null
$SONDE strace -f -o "$TMP/fout" --trace-file "$TMP/f.sonde" "$FIX/strace_proc" exec > /dev/null
ref=$(execs "$TMP/fref" | grep nonexistent)
out=$(execs "$TMP/fout" | grep nonexistent)
check "strace_exec_argv: strace shows the failed execve's path and argv" \
	grep -qF 'execve("/nonexistent", ["/bin/true", "--a-long-argument-that-is-longer"...], ENVP)' <<<"$ref"
if [ -n "$ref" ] && [ "$ref" = "$out" ]; then
	ok "strace_exec_argv: the failed execve's line as strace's"
else
	notok "strace_exec_argv: the failed execve's line differs: strace '$ref', sonde '$out'"
fi
# Joined: the parent's wait4 may enter while the call is in flight, and
# the line is then split (<unfinished ...>), as strace -f splits it.
$SONDE print --strace -v "$TMP/f.sonde" > "$TMP/fvall"
strace_joined "$TMP/fvall" | grep -F 'execve("/nonexistent"' > "$TMP/fv"
check "strace_exec_argv: -v shows its environment strings, read again at exit ($(cat "$TMP/fv"))" \
	grep -qF '["A=1", "B=2"]) = -1 ENOENT' "$TMP/fv"

# More than SONDE_STRV_MAX (16384) arguments: the recorder cuts the array
# and says how long it was. Without -v strace shows 32 of them and the
# environment's count, which sonde matches (live, and from a trace); with
# -v sonde shows the 16384 it captured, then "...", where strace goes on.
long() {
	sed -nE 's/^([0-9]+ +)?(execve\(.*)$/\2/p' "$1" | sed -E 's/0x[0-9a-f]+ \/\*/ENVP \/*/'
}
args=$(seq 1 17000)
# shellcheck disable=SC2086
strace -e trace=execve -o "$TMP/lref" /bin/true $args
# shellcheck disable=SC2086
$SONDE strace -e trace=execve -o "$TMP/lout" --trace-file "$TMP/l.sonde" /bin/true $args
check "strace_exec_argv: 17000 arguments: strace shows 32 and the count of vars" \
	grep -qE '"31", \.\.\.\], ENVP /\* [0-9]+ vars \*/\) = 0$' <(long "$TMP/lref")
long "$TMP/lref" > "$TMP/lref.x"
long "$TMP/lout" > "$TMP/lout.x"
same "strace_exec_argv: 17000 arguments: sonde strace as strace" "$TMP/lref.x" "$TMP/lout.x"
$SONDE print --strace -e trace=execve "$TMP/l.sonde" > "$TMP/lprint"
long "$TMP/lprint" > "$TMP/lprint.x"
same "strace_exec_argv: 17000 arguments: print --strace as strace" "$TMP/lref.x" "$TMP/lprint.x"
$SONDE print --strace -v -e trace=execve "$TMP/l.sonde" > "$TMP/lv"
check "strace_exec_argv: 17000 arguments: -v shows the 16384 captured, then ..." \
	grep -qF '"16382", "16383", ...], ["' "$TMP/lv"
$SONDE print --json -e trace=execve --events syscall "$TMP/l.sonde" | python3 -c '
import json, sys
o = json.loads(sys.stdin.readline())
print(len(o["argv"]["argv"]), o["result"]["argv_count"], len(o["argv"]["envp"]))' \
	> "$TMP/lj"
check "strace_exec_argv: 17000 arguments: print --json has 16384, argv_count 17001, envp ($(cat "$TMP/lj"))" \
	grep -qx "16384 17001 $(sed -nE 's|.*/\* ([0-9]+) vars \*/.*|\1|p' "$TMP/lref.x")" "$TMP/lj"

# Up to SONDE_STRV_MAX arguments -v shows every argument and variable, as
# strace -v (xargs builds command lines of thousands: 128 KiB by default).
# bash's "_=" names each tracer: left out, with the "..." strace adds when
# that path is longer than 32 bytes, as in a clone under /check/....
vlines() {
	sed -nE 's/^([0-9]+ +)?(execve\(.*)$/\2/p' "$1" | sed -E 's/, "_=[^"]*"(\.\.\.)?//'
}
args=$(seq 1 5000)
# shellcheck disable=SC2086
strace -v -e trace=execve -o "$TMP/xref" /bin/true $args
# shellcheck disable=SC2086
$SONDE strace -v -e trace=execve -o "$TMP/xout" --trace-file "$TMP/x.sonde" /bin/true $args
check "strace_exec_argv: 5000 arguments: strace -v shows the last" \
	grep -qF '"4999", "5000"], [' "$TMP/xref"
$SONDE print --strace -v -e trace=execve "$TMP/x.sonde" > "$TMP/xprint"
vlines "$TMP/xref" > "$TMP/xref.x"
vlines "$TMP/xout" > "$TMP/xout.x"
vlines "$TMP/xprint" > "$TMP/xprint.x"
same "strace_exec_argv: 5000 arguments: sonde strace -v as strace -v" "$TMP/xref.x" "$TMP/xout.x"
same "strace_exec_argv: 5000 arguments: print --strace -v as strace -v" "$TMP/xref.x" "$TMP/xprint.x"
