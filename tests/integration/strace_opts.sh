#!/usr/bin/env bash
# strace's -P, -e signal=, -q/-qq/-qqq/-e quiet= and -c's -S, -w, -U and -O, in
# `sonde strace` and `sonde print --strace`, each against Debian's strace
# 6.1 on the same workload: a shell redirecting cat into a file, the
# rec_signals fixture (signals of every origin, a child killed by
# SIGTERM), the sig_stop fixture (SIGSTOP, then SIGCONT). Logs are
# normalised by strace_lines.py (strace_norm.py's rules) and diffed.
. "$(dirname "$0")/lib.sh"
need_root
need_strace
L=tests/integration/strace_lines.py
D=$TMP/d
mkdir -p "$D"

# --- -P: by path argument, by descriptor (opened, dup'ed, inherited) ---
printf 'hello\n' > "$D/f"
ln -sf f "$D/l"
W='cat f > g; cat l; ls -l f > /dev/null; cat g'
# run_p TOOL OUT ARGS...: the workload under TOOL (strace or sonde strace).
run_p() {
	local out=$2 tool=$1
	shift 2
	(cd "$D" && : > g && $tool -f -o "$out" "$@" sh -c "$W" > /dev/null 2> "$out.err")
}
for a in "-P f -P $D/g" "-P $D/l" "-P $D/g -e trace=write,close"; do
	# shellcheck disable=SC2086
	run_p strace "$TMP/p.ref" $a
	# shellcheck disable=SC2086
	run_p "$SONDE strace" "$TMP/p.got" $a
	python3 $L --order "$TMP/p.ref" > "$TMP/p.ref.n"
	python3 $L --order "$TMP/p.got" > "$TMP/p.got.n"
	same "strace_opts: -f $a as strace" "$TMP/p.ref.n" "$TMP/p.got.n"
	[ -e "$TMP/p.first" ] || cp "$TMP/p.got.n" "$TMP/p.first"
	sed 's/^strace: //' "$TMP/p.ref.err" > "$TMP/p.ref.e"
	sed 's/^sonde strace: //' "$TMP/p.got.err" > "$TMP/p.got.e"
	cmp -s "$TMP/p.ref.e" "$TMP/p.got.e" && ok "strace_opts: $a: strace's notes on stderr" ||
		notok "strace_opts: $a: notes differ: $(cat "$TMP/p.got.e") vs $(cat "$TMP/p.ref.e")"
done
check "strace_opts: -P matched dup2 by descriptor" grep -qE '^T[0-9]+ dup2\(3, 1\) = 1$' "$TMP/p.first"
check "strace_opts: -P matched cat's calls on the fd 1 it inherited" \
	grep -qE '^T[0-9]+ newfstatat\(1, "", \{st_mode=S_IFREG' "$TMP/p.first"
# Offline: the same workload recorded, printed with -P from its directory.
(cd "$D" && : > g && "$SONDE" record -q -o "$TMP/p.sonde" -- sh -c "$W" > /dev/null 2>&1)
run_p strace "$TMP/p.ref" -P f -P "$D/g"
(cd "$D" && "$SONDE" print --strace -P f -P "$D/g" "$TMP/p.sonde" > "$TMP/p.off" 2> "$TMP/p.off.err")
python3 $L --order "$TMP/p.ref" > "$TMP/p.ref.n"
python3 $L --order "$TMP/p.off" > "$TMP/p.off.n"
same "strace_opts: print --strace -P as strace -P" "$TMP/p.ref.n" "$TMP/p.off.n"
check "strace_opts: print -P resolved note" \
	grep -qx "sonde print: Requested path \"f\" resolved into \"$D/f\"" "$TMP/p.off.err"
"$SONDE" print -P f "$TMP/p.sonde" > /dev/null 2>&1
check "strace_opts: print -P without --strace is refused (status 2)" [ $? = 2 ]
"$SONDE" strace --json -P f true > /dev/null 2>&1
check "strace_opts: strace --json -P is refused (status 2)" [ $? = 2 ]

# --- -e signal=SET: --- SIG --- and +++ killed by +++ lines ---
# sigs LOG: the signal and exit lines, sorted (a SIGCHLD's place among
# the parent's calls is a race, docs/strace-differences.md).
sigs() { python3 $L --match '^(---|\+\+\+) ' --sort "$1"; }
for set in all none '!SIGCHLD' 'USR1,segv' 15 '!usr1,34'; do
	strace -f -e signal="$set" -o "$TMP/s.ref" "$FIX/rec_signals" > /dev/null
	"$SONDE" strace -f --signal="$set" -o "$TMP/s.got" "$FIX/rec_signals" > /dev/null
	sigs "$TMP/s.ref" > "$TMP/s.ref.n"
	sigs "$TMP/s.got" > "$TMP/s.got.n"
	[ "$set" = none ] && echo "(no signal line)" | tee -a "$TMP/s.ref.n" >> "$TMP/s.got.n"
	same "strace_opts: -e signal=$set: the signal lines of strace" "$TMP/s.ref.n" "$TMP/s.got.n"
done

# A job-control stop: the child's lines, in order.
stop_lines() { python3 $L --match '^(---|\+\+\+) ' "$1" | grep '^P0c0 '; }
for set in '!SIGSTOP' all; do
	strace -f -e signal="$set" -o "$TMP/t.ref" "$FIX/sig_stop"
	"$SONDE" strace -f -e signal="$set" -o "$TMP/t.got" "$FIX/sig_stop"
	stop_lines "$TMP/t.ref" > "$TMP/t.ref.n"
	stop_lines "$TMP/t.got" > "$TMP/t.got.n"
	same "strace_opts: SIGSTOP, -e signal=$set: the stopped child's lines of strace" \
		"$TMP/t.ref.n" "$TMP/t.got.n"
done
check "strace_opts: --- stopped by SIGSTOP --- right after the SIGSTOP line" \
	grep -A1 -- '--- SIGSTOP' "$TMP/t.got" | grep -q -- '--- stopped by SIGSTOP ---'
# Two threads: both enter the group stop, each gets its line.
strace -f -o "$TMP/t.ref" "$FIX/sig_stop" thread
"$SONDE" strace -f -o "$TMP/t.got" "$FIX/sig_stop" thread
python3 $L --match '^--- stopped' --sort "$TMP/t.ref" > "$TMP/t.ref.n"
python3 $L --match '^--- stopped' --sort "$TMP/t.got" > "$TMP/t.got.n"
same "strace_opts: SIGSTOP to a process of two threads: strace's stopped lines" \
	"$TMP/t.ref.n" "$TMP/t.got.n"
"$SONDE" strace -o "$TMP/t.nof" "$FIX/sig_stop" thread
check "strace_opts: without -f, no stopped line for threads not traced" \
	[ "$(grep -c 'stopped by' "$TMP/t.nof")" = 0 ]
"$SONDE" record -q -o "$TMP/t.sonde" -- "$FIX/sig_stop"
"$SONDE" print --strace "$TMP/t.sonde" > "$TMP/t.off"
stop_lines "$TMP/t.off" > "$TMP/t.off.n"
strace -f -o "$TMP/t.ref" "$FIX/sig_stop"
stop_lines "$TMP/t.ref" > "$TMP/t.ref.n"
same "strace_opts: print --strace: the stopped child's lines of strace" "$TMP/t.ref.n" "$TMP/t.off.n"

# --- -q, -qq, -qqq, -e quiet= ---
for q in -q -qq -qqq "-e quiet=exit" "-e quiet=!exit"; do
	# shellcheck disable=SC2086
	strace -f $q -o "$TMP/q.ref" "$FIX/rec_signals" > /dev/null 2>&1
	# shellcheck disable=SC2086
	"$SONDE" strace -f $q -o "$TMP/q.got" "$FIX/rec_signals" > /dev/null
	python3 $L --match '^\+\+\+ ' --sort "$TMP/q.ref" > "$TMP/q.ref.n"
	python3 $L --match '^\+\+\+ ' --sort "$TMP/q.got" > "$TMP/q.got.n"
	same "strace_opts: $q: strace's +++ lines" "$TMP/q.ref.n" "$TMP/q.got.n"
	# shellcheck disable=SC2086
	(cd "$D" && strace $q -P f -o /dev/null true 2> "$TMP/q.ref.e")
	# shellcheck disable=SC2086
	(cd "$D" && "$SONDE" strace $q -P f -o /dev/null true 2> "$TMP/q.got.e")
	check "strace_opts: $q: -P's note as strace (shown or not)" \
		[ "$(sed 's/^strace: //' "$TMP/q.ref.e")" = "$(sed 's/^sonde strace: //' "$TMP/q.got.e")" ]
done
"$SONDE" print --strace -qq "$TMP/t.sonde" > "$TMP/q.off"
check "strace_opts: print --strace -qq drops the exit lines" \
	[ "$(grep -c '+++ exited' "$TMP/t.off")" -gt 0 -a "$(grep -c '+++ exited' "$TMP/q.off")" = 0 ]

# --- -c with -S and -w ---
C="cat f g l"
for s in name nothing calls errors time min-time; do
	(cd "$D" && strace -c -S $s -o "$TMP/c.ref" $C > /dev/null)
	(cd "$D" && "$SONDE" strace -c -S $s -o "$TMP/c.got" $C > /dev/null)
	count_rows "$TMP/c.ref" > "$TMP/c.ref.n"
	count_rows "$TMP/c.got" > "$TMP/c.got.n"
	case $s in
	name | nothing)
		same "strace_opts: -c -S $s: strace's rows in strace's order" "$TMP/c.ref.n" "$TMP/c.got.n" ;;
	*)
		sort -o "$TMP/c.ref.n" "$TMP/c.ref.n"
		sort -o "$TMP/c.got.n" "$TMP/c.got.n"
		same "strace_opts: -c -S $s: strace's rows" "$TMP/c.ref.n" "$TMP/c.got.n" ;;
	esac
	check "strace_opts: -c -S $s: strace's header" \
		[ "$(head -2 "$TMP/c.ref")" = "$(head -2 "$TMP/c.got")" ]
done
# Sorted descending by the key (ties in any order).
desc() { awk -v k="$2" '/^-----/ { n++; next } n == 1 { if (NR > 3 && $k > prev) bad = 1; prev = $k }
	END { exit bad }' "$1"; }
(cd "$D" && "$SONDE" strace -c -S calls -o "$TMP/c.calls" $C > /dev/null)
check "strace_opts: -S calls sorts by calls" desc "$TMP/c.calls" 4
(cd "$D" && "$SONDE" strace -c -o "$TMP/c.time" $C > /dev/null)
check "strace_opts: -c sorts by time by default" desc "$TMP/c.time" 2
(cd "$D" && strace -c -w -o "$TMP/c.ref" $C > /dev/null)
(cd "$D" && "$SONDE" strace -c -w -o "$TMP/c.got" $C > /dev/null)
count_rows "$TMP/c.ref" | sort > "$TMP/c.ref.n"
count_rows "$TMP/c.got" | sort > "$TMP/c.got.n"
same "strace_opts: -c -w: strace's rows" "$TMP/c.ref.n" "$TMP/c.got.n"
check "strace_opts: -c -w: strace's header" [ "$(head -2 "$TMP/c.ref")" = "$(head -2 "$TMP/c.got")" ]
(cd "$D" && strace -c -P f -o "$TMP/c.ref" $C > /dev/null 2>&1)
(cd "$D" && "$SONDE" strace -c -P f -o "$TMP/c.got" $C > /dev/null 2>&1)
count_rows "$TMP/c.ref" | sort > "$TMP/c.ref.n"
count_rows "$TMP/c.got" | sort > "$TMP/c.got.n"
same "strace_opts: -c -P f: the calls strace counts" "$TMP/c.ref.n" "$TMP/c.got.n"
"$SONDE" strace -c -S bogus true > /dev/null 2>&1
check "strace_opts: -S with an unknown key is refused (status 2)" [ $? = 2 ]
# sonde stat takes strace's -S names; nothing = syscall number order.
# by_nr FILE: the syscalls of a -c/stat table come in syscall number order.
by_nr() {
	python3 - "$1" <<'PY'
import re, sys
h = open('/usr/include/x86_64-linux-gnu/asm/unistd_64.h').read()
nr = {m.group(1): int(m.group(2)) for m in re.finditer(r'#define __NR_(\w+) (\d+)', h)}
rows, n = [], 0
for l in open(sys.argv[1]):
    if l.startswith('-----'):
        n += 1
    elif n == 1:
        rows.append(nr[l.split()[-1]])
sys.exit(0 if len(rows) > 3 and rows == sorted(rows) else 1)
PY
}
"$SONDE" stat -S nothing "$TMP/t.sonde" > "$TMP/st.out"
check "strace_opts: sonde stat -S nothing: syscall number order" by_nr "$TMP/st.out"
(cd "$D" && "$SONDE" strace -c -S none -o "$TMP/c.none" $C > /dev/null)
check "strace_opts: sonde strace -c -S none: syscall number order" by_nr "$TMP/c.none"
"$SONDE" stat -S count "$TMP/t.sonde" > "$TMP/st.count"
check "strace_opts: sonde stat -S count = -S calls" \
	cmp -s "$TMP/st.count" <("$SONDE" stat -S calls "$TMP/t.sonde")

# --- -c's -U (columns) and -O (overhead) ---
# An overhead above every call's time makes each time 0, so the whole
# table is strace's byte for byte: headings, dashes, widths, rows in tie
# order (syscall number), calls, errors and the total line.
for u in "" "-U name,errors,calls,min-time,time-percent" "-U max-time" \
	"-U time_total,count,shortest,longest,avg-time,error,syscall" "-U errors,name,calls"; do
	# shellcheck disable=SC2086
	(cd "$D" && strace -c -w $u -O 1s -o "$TMP/u.ref" $C > /dev/null)
	# shellcheck disable=SC2086
	(cd "$D" && "$SONDE" strace -c $u -O 1s -o "$TMP/u.got" $C > /dev/null)
	same "strace_opts: -c ${u:-(default columns)} -O 1s: strace's table" "$TMP/u.ref" "$TMP/u.got"
done
# A real overhead: each call's duration in the recording less 20 us,
# never below 0, summed, and each syscall's shortest and longest.
# want_rows TRACE: the rows -U name,calls,total-time,min-time,max-time
# -O 20us should print (sorted), then the total line.
want_rows() {
	"$SONDE" print --json --events syscall "$1" | python3 -c '
import json, sys
rows = {}
for l in sys.stdin:
    o = json.loads(l)
    if o["noreturn"] or o["unfinished"]:
        continue
    t = max(0, o["dur"] - 20000)
    r = rows.setdefault(o["name"], [0, 0, None, 0])
    r[0] += 1; r[1] += t
    r[2] = t if r[2] is None else min(r[2], t); r[3] = max(r[3], t)
line = lambda n, r: "%-16s %9d %11.6f %8.6f %8.6f" % (n, r[0], r[1] / 1e9, r[2] / 1e9, r[3] / 1e9)
for n in sorted(rows):
    print(line(n, rows[n]))
v = list(rows.values())
print(line("total", [sum(r[0] for r in v), sum(r[1] for r in v), min(r[2] for r in v), max(r[3] for r in v)]))'
}
(cd "$D" && "$SONDE" strace -c -U name,calls,total-time,min-time,max-time -O 20us \
	--trace-file "$TMP/o.sonde" -o "$TMP/o.got" $C > /dev/null)
want_rows "$TMP/o.sonde" > "$TMP/o.want"
{ awk '/^-----/ { n++; next } n == 1' "$TMP/o.got" | sort; tail -1 "$TMP/o.got"; } > "$TMP/o.got.n"
same "strace_opts: -c -O 20us: each call's time less 20 us (total, shortest, longest)" \
	"$TMP/o.want" "$TMP/o.got.n"
# --json -c: the report's times are the same.
(cd "$D" && "$SONDE" strace -c --json -O 20us --trace-file "$TMP/j.sonde" -o "$TMP/j.got" $C \
	> /dev/null)
check "strace_opts: -c --json -O 20us: the report's total time, less 20 us per call" \
	[ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["total"]["time_ns"])' "$TMP/j.got")" \
	= "$("$SONDE" print --json --events syscall "$TMP/j.sonde" | python3 -c '
import json, sys
print(sum(max(0, o["dur"] - 20000) for o in map(json.loads, sys.stdin) if not (o["noreturn"] or o["unfinished"])))')" ]
# Bad columns and overheads are refused as strace refuses them.
for bad in "-U calls,calls" "-U calls,foo" "-U calls," "-U percent" "-O -1" "-O 10xs" "-O 10US" "-O abc"; do
	# shellcheck disable=SC2086
	strace -c $bad true > /dev/null 2>&1
	r=$?
	# shellcheck disable=SC2086
	"$SONDE" strace -c $bad true > /dev/null 2> "$TMP/bad.err"
	check "strace_opts: $bad: refused (strace: status $r; sonde: 2, with the reason)" \
		[ $? = 2 -a $r != 0 -a -s "$TMP/bad.err" ]
done
