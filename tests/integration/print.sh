#!/usr/bin/env bash
# sonde print and sonde stat on a real recording of tests/fixtures/decode_seq:
# text lines, filters, --json fields, flight format, stat totals, damaged
# and foreign files, output errors.
. "$(dirname "$0")/lib.sh"
need_root

T=$TMP/t.sonde
# -s 0: metadata only, so buffers and paths print as addresses below.
if ! "$SONDE" record -s 0 -o "$T" -- "$FIX/decode_seq" > "$TMP/rec.out" 2>&1; then
	notok "record decode_seq (see below)"
	cat "$TMP/rec.out"
	exit 1
fi
"$SONDE" print "$T" > "$TMP/p.txt" 2> "$TMP/p.err"
check "print exits 0 on a good trace" test $? -eq 0
check "print writes nothing on stderr for a good trace" test ! -s "$TMP/p.err"

# The traced process and its children, from the exec and fork lines.
main=$(sed -n 's/^\[pid *\([0-9]*\)\] --- exec ".*decode_seq".*/\1/p' "$TMP/p.txt" | head -1)
kids=$(sed -n 's/.*--- new process pid=\([0-9]*\) .*/\1/p' "$TMP/p.txt" | tr '\n' ' ')
check "exec line of the fixture" test -n "$main"
set -- $kids
child3=${1:-none} child9=${2:-none}

check "ENOENT rendered as strace does" \
	grep -q "^\[pid *$main\] openat(AT_FDCWD, 0x[0-9a-f]*, O_RDONLY) = -1 ENOENT (No such file or directory) <[0-9]\.[0-9]\{6\}>$" "$TMP/p.txt"
check "five getppid lines with the parent's pid" \
	test "$(grep -c "^\[pid *$main\] getppid() *= [0-9]* <" "$TMP/p.txt")" -eq 5
check "write of 7 bytes" grep -q "^\[pid *$main\] write(3, 0x[0-9a-f]*, 7) *= 7 <" "$TMP/p.txt"
"$SONDE" print --raw --events syscall "$T" > "$TMP/raw.txt"
check "--raw: the raw registers in hex" \
	grep -q "^\[pid *$main\] openat(0xffffff9c, 0x[0-9a-f]*, 0, 0) = -1 ENOENT (No such file or directory) <[0-9]\.[0-9]\{6\}>$" "$TMP/raw.txt"
check "exit_group never returns: = ?" grep -q "^\[pid *$main\] exit_group(0) *= ?$" "$TMP/p.txt"
check "child exit status" grep -q "^\[pid *$child3\] +++ exited with 3 +++$" "$TMP/p.txt"
check "child killed by SIGKILL" grep -q "^\[pid *$child9\] +++ killed by SIGKILL +++$" "$TMP/p.txt"
check "thread creation line" grep -q "^\[pid *$main\] --- new thread tid=[0-9]* flags=0x[0-9a-f]* comm=\"decode_seq\" ---$" "$TMP/p.txt"
check "sched lines present" grep -q -- "--- sched_switch cpu=" "$TMP/p.txt"
check "' = ' aligned on column 40 for short calls" \
	awk '/getppid\(\)/ { if (index($0, "= ") != 41) exit 1 }' "$TMP/p.txt"

# -e trace= and --events
"$SONDE" print -e trace=getppid,gettid --events syscall "$T" > "$TMP/f1.txt"
check "-e trace=getppid,gettid --events syscall: 8 lines" test "$(wc -l < "$TMP/f1.txt")" -eq 8
"$SONDE" print -e trace=getppid "$T" > "$TMP/f2.txt"
check "-e trace= keeps the other events" grep -q -- "+++ exited with 3 +++" "$TMP/f2.txt"
check "-e trace= drops other syscalls" bash -c "! grep -q '] write(' '$TMP/f2.txt'"
"$SONDE" print -e 'trace=!%memory' --events syscall "$T" > "$TMP/f3.txt"
check "-e trace=!%memory drops mmap" bash -c "! grep -q '] mmap(' '$TMP/f3.txt' && grep -q '] getppid(' '$TMP/f3.txt'"
"$SONDE" print -Z --events syscall "$T" > "$TMP/f4.txt"
check "-Z: only failed calls" bash -c "test -s '$TMP/f4.txt' && ! grep -v -q ' = -1 E' '$TMP/f4.txt'"
"$SONDE" print -p "$child3" "$T" > "$TMP/f5.txt"
check "-p CHILD: only that child's events (and its fork)" \
	bash -c "grep -q 'exited with 3' '$TMP/f5.txt' && ! grep -q '] getppid(' '$TMP/f5.txt' && grep -q 'new process pid=$child3' '$TMP/f5.txt'"
"$SONDE" print --no-sched "$T" > "$TMP/f6.txt"
check "--no-sched" bash -c "! grep -q sched_ '$TMP/f6.txt' && grep -q getppid '$TMP/f6.txt'"

# --since/--until, with raw timestamps (@NS) and seconds after the first event
"$SONDE" print --json --events syscall "$T" > "$TMP/all.json"
read -r first mid < <(python3 -c '
import json, sys
ts = [json.loads(l)["ts"] for l in open(sys.argv[1])]
print(ts[0], ts[len(ts) // 2])' "$TMP/all.json")
"$SONDE" print --json --events syscall --until "@$mid" "$T" > "$TMP/until.json"
"$SONDE" print --json --events syscall --since "@$mid" "$T" > "$TMP/since.json"
dup=$(grep -c "\"ts\":$mid," "$TMP/all.json")
check "--since/--until @NS split the trace" \
	test $(($(wc -l < "$TMP/until.json") + $(wc -l < "$TMP/since.json") - dup)) -eq "$(wc -l < "$TMP/all.json")"
check "--since @NS: nothing earlier" python3 -c '
import json, sys
assert all(json.loads(l)["ts"] >= int(sys.argv[2]) for l in open(sys.argv[1]))' "$TMP/since.json" "$mid"
first_all=$("$SONDE" print --json "$T" | head -1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["ts"])')
rel=$(python3 -c 'import sys; d = int(sys.argv[2]) - int(sys.argv[1]); print("%d.%09d" % (d // 10**9, d % 10**9))' "$first_all" "$mid")
"$SONDE" print --json --events syscall --since "$rel" "$T" > "$TMP/since_rel.json"
check "--since SECONDS counts from the first event" cmp -s "$TMP/since.json" "$TMP/since_rel.json"
"$SONDE" print --relative --events syscall --since "$rel" "$T" | head -1 > "$TMP/rel1.txt"
check "--relative counts from the first event too" \
	grep -q "^ *$(printf '%s' "$rel" | cut -c1-8) " "$TMP/rel1.txt"

# --json
"$SONDE" print --json "$T" > "$TMP/p.json"
check "--json: valid NDJSON with the required fields" python3 - "$TMP/p.json" "$main" <<'EOF'
import json, sys
need = {"syscall": ["name", "nr", "args", "ret", "dur", "noreturn", "unfinished"],
        "switch": ["prev_state", "next_pid", "next_tid", "next_comm", "prev_prio", "next_prio"],
        "wakeup": ["prio", "target_cpu"], "fork": ["child_pid", "child_tid", "clone_flags"],
        "exec": ["filename", "argv"], "exit": ["status"], "lost": ["count"],
        "comm": ["comm"], "proc": ["ppid", "cmdline"],
        "signal": ["signal", "si_signo", "si_code", "handler"],
        "signal_generate": ["signal", "si_signo", "sender_pid", "result"]}
types = set()
prev = 0
for line in open(sys.argv[1]):
    o = json.loads(line)
    for k in ["type", "ts", "cpu", "pid", "tid"]:
        assert k in o, (k, o)
    assert o["ts"] >= prev, "not in time order"
    prev = o["ts"]
    types.add(o["type"])
    for k in need[o["type"]]:
        assert k in o, (k, o)
    if o["type"] == "syscall" and o["name"] == "write" and o["pid"] == int(sys.argv[2]):
        assert o["args"][0] == 3 and o["args"][2] == 7 and o["ret"] == 7, o
    if o["type"] == "syscall" and o["name"] == "openat" and o["ret"] == -2:
        assert o["errno"] == "ENOENT", o
    if o["type"] == "syscall" and o["name"] == "exit_group":
        assert o["noreturn"] is True, o
    if o["type"] == "exit" and o.get("signal") == 9:
        assert o["signal_name"] == "SIGKILL"
for t in ["syscall", "switch", "wakeup", "fork", "exec", "exit"]:
    assert t in types, t
EOF
nsys=$(grep -c '"type":"syscall"' "$TMP/p.json")
ntext=$(grep -c -E '^\[pid +[0-9]+\] [a-z0-9_]+\(' "$TMP/p.txt")
check "json and text agree on the number of syscalls ($nsys)" test "$nsys" -eq "$ntext"

# --format=flight
"$SONDE" print --format=flight "$T" > "$TMP/fl.txt"
check "flight: every line is 'hh:mm:ss.uuuuuu #CPU PID event'" \
	bash -c "! grep -v -E '^[0-2][0-9]:[0-5][0-9]:[0-6][0-9]\.[0-9]{6} #[0-9]+ [0-9]+ .' '$TMP/fl.txt'"
check "flight: getppid entry and exit lines" \
	bash -c "test \$(grep -c ' $main getppid() -->$' '$TMP/fl.txt') -eq 5 && test \$(grep -c ' $main getppid() <-- [0-9]*$' '$TMP/fl.txt') -eq 5"
check "flight: lines in time order" bash -c "cut -c1-15 '$TMP/fl.txt' | sort -c"
check "flight: switch lines" grep -q -E ' <-- TASK_[A-Z]+' "$TMP/fl.txt"
h_utc=$(TZ=UTC "$SONDE" print --format=flight "$T" | head -1 | cut -c1-2)
h_jp=$(TZ=UTC-9 "$SONDE" print --format=flight "$T" | head -1 | cut -c1-2)
h_jp_utc=$(TZ=UTC-9 "$SONDE" print --format=flight --utc "$T" | head -1 | cut -c1-2)
check "flight: local time, or UTC with --utc" \
	test $(((10#$h_utc + 9) % 24)) -eq $((10#$h_jp)) -a "$h_jp_utc" = "$h_utc"

# -o FILE
"$SONDE" print -o "$TMP/o.txt" "$T"
check "-o FILE writes the same lines" cmp -s "$TMP/o.txt" "$TMP/p.txt"
"$SONDE" print -o /dev/full "$T" 2> "$TMP/full.err"
check "output to a full disk fails with status 1" test $? -eq 1
check "... naming the error" grep -q "No space left on device" "$TMP/full.err"

# stat
"$SONDE" stat "$T" > "$TMP/s.txt"
check "stat exits 0" test $? -eq 0
total=$(awk '$NF == "total" { print $5 }' "$TMP/s.txt")
check "stat total calls = syscalls in the trace ($total = $nsys)" test "$total" = "$nsys"
check "stat counts 5 getppid" grep -q -E '^ *[0-9.]+ +[0-9.]+ +[0-9]+ +[0-9]+ +5 +getppid$' "$TMP/s.txt"
check "stat counts the ENOENT as an error" grep -q -E ' [0-9]+ +[1-9][0-9]* openat$' "$TMP/s.txt"
"$SONDE" stat --json --per-process "$T" > "$TMP/s.json"
check "stat --json --per-process" python3 - "$TMP/s.json" "$nsys" "$child3" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["total"]["calls"] == int(sys.argv[2]), d["total"]["calls"]
assert sum(s["calls"] for s in d["total"]["syscalls"]) == d["total"]["calls"]
assert sum(p["calls"] for p in d["processes"]) == d["total"]["calls"]
g = {s["name"]: s for s in d["total"]["syscalls"]}
assert g["getppid"]["calls"] == 5 and g["gettid"]["calls"] == 3
assert g["exit_group"]["returned"] < g["exit_group"]["calls"]
assert sum(b["count"] for b in g["getppid"]["hist"]) == 5
assert any(p["pid"] == int(sys.argv[3]) for p in d["processes"])
EOF
"$SONDE" stat --hist -e trace=getppid "$T" > "$TMP/h.txt"
check "stat --hist draws bars" grep -q -E '^  \[[0-9KMG]+(, [0-9KMG]+\))? +[0-9]+ \|@+ *\|$' "$TMP/h.txt"
"$SONDE" stat -P "$T" > "$TMP/pp.txt"
check "stat -P: a table per process" test "$(grep -c '^pid [0-9]* "decode_seq":$' "$TMP/pp.txt")" -ge 3

# Damaged and foreign files
size=$(stat -c %s "$T")
head -c $((size - 64)) "$T" > "$TMP/trunc.sonde"
"$SONDE" print "$TMP/trunc.sonde" > "$TMP/trunc.txt" 2> "$TMP/trunc.err"
rc=$?
check "truncated file: exit 0 and a warning" bash -c "test $rc -eq 0 && grep -q -i truncated '$TMP/trunc.err'"
check "truncated file: complete chunks still printed" test -s "$TMP/trunc.txt"
"$SONDE" stat "$TMP/trunc.sonde" > /dev/null 2> "$TMP/trunc2.err"
check "stat warns on a truncated file too" grep -q -i truncated "$TMP/trunc2.err"
"$SONDE" print /etc/passwd > /dev/null 2> "$TMP/np.err"
check "a non-sonde file: exit 1" test $? -eq 1
check "... with a message naming the file" grep -q "/etc/passwd" "$TMP/np.err"
"$SONDE" print "$TMP/missing.sonde" 2> /dev/null
check "a missing file: exit 1" test $? -eq 1
"$SONDE" print -e trace=opne "$T" 2> "$TMP/bad.err"
check "bad -e trace: exit 2, names the token and suggests" \
	bash -c "test $? -eq 2 && grep -q \"'opne' (did you mean 'open'?)\" '$TMP/bad.err'"
"$SONDE" print --format=xml "$T" 2> /dev/null
check "bad --format: exit 2" test $? -eq 2
"$SONDE" help print | grep -q -- "--format" && "$SONDE" help stat | grep -q -- "--hist"
check "help texts" test $? -eq 0
