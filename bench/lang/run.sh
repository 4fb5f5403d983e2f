#!/usr/bin/env bash
# sonde script vs bpftrace 0.17, side by side in one run:
#  1. startup: `BEGIN { exit(0) }`, and a script with a syscall probe that
#     exits from BEGIN (command start -> probes attached -> exit), by
#     hyperfine (wall time, mean of N runs);
#  2. peak memory (max RSS, /usr/bin/time) of the same two scripts;
#  3. per-syscall cost of `syscall::read:entry { @[execname] = count(); }`
#     (bpftrace: tracepoint:syscalls:sys_enter_read { @[comm] = count(); })
#     on a read(2) loop: ns per read traced minus untraced, median of R runs.
# Usage: bench/lang/run.sh [BUILD_DIR]  (needs root)
set -eu
cd "$(dirname "$0")/../.."
B=${1:-build}
SONDE=$PWD/$B/sonde
RUNS=${RUNS:-20}
R=${R:-5}
ITER=${ITER:-2000000}
TMP=$(mktemp -d /tmp/sonde-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
cc -O2 -o "$TMP/readloop" bench/lang/readloop.c
BT=$(command -v bpftrace || true)

s_begin='BEGIN { exit(0); }'
s_probe='syscall::read:entry { @[execname] = count(); } BEGIN { exit(0); }'
b_begin='BEGIN { exit(); }'
b_probe='tracepoint:syscalls:sys_enter_read { @[comm] = count(); } BEGIN { exit(); }'

echo "== startup (wall time, mean of $RUNS runs)"
hyperfine -N -w 2 -r "$RUNS" --export-json "$TMP/h.json" \
	-n "sonde  BEGIN{exit}" "$SONDE script '$s_begin'" \
	-n "sonde  read probe + exit" "$SONDE script '$s_probe'" \
	${BT:+-n "bpftrace BEGIN{exit}" "$BT -e '$b_begin'"} \
	${BT:+-n "bpftrace read probe + exit" "$BT -e '$b_probe'"} > /dev/null 2>&1
python3 - "$TMP/h.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"  {r['command']:<28} {r['mean']*1000:8.1f} ms  (+- {r['stddev']*1000:.1f})")
PY

echo "== peak memory (max RSS)"
rss() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
printf "  %-28s %8s KiB\n" "sonde  BEGIN{exit}" "$(rss "$SONDE" script "$s_begin")"
printf "  %-28s %8s KiB\n" "sonde  read probe + exit" "$(rss "$SONDE" script "$s_probe")"
if [ -n "$BT" ]; then
	printf "  %-28s %8s KiB\n" "bpftrace BEGIN{exit}" "$(rss "$BT" -e "$b_begin")"
	printf "  %-28s %8s KiB\n" "bpftrace read probe + exit" "$(rss "$BT" -e "$b_probe")"
fi

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
loop() { for _ in $(seq "$R"); do "$TMP/readloop" "$ITER"; done | median; }

# Runs the read loop while TOOL traces; waits until it is attached.
traced() { # name cmd...
	local name=$1; shift
	"$@" > "$TMP/$name.out" 2>&1 &
	local pid=$!
	sleep "${ATTACH_WAIT:-3}"
	loop
	kill -INT "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}

echo "== per-syscall cost, read(2) of 1 byte, $ITER calls, median of $R"
base=$(loop)
sonde_ns=$(traced sonde "$SONDE" script 'syscall::read:entry { @[execname] = count(); }')
printf "  %-28s %8.1f ns/read\n" "untraced" "$base"
printf "  %-28s %8.1f ns/read  (+%.1f)\n" "sonde" "$sonde_ns" "$(echo "$sonde_ns - $base" | bc)"
if [ -n "$BT" ]; then
	bt_ns=$(traced bpftrace "$BT" -e 'tracepoint:syscalls:sys_enter_read { @[comm] = count(); }')
	printf "  %-28s %8.1f ns/read  (+%.1f)\n" "bpftrace" "$bt_ns" "$(echo "$bt_ns - $base" | bc)"
fi
grep -q readloop "$TMP/sonde.out" && echo "  (sonde counted the loop: $(grep readloop "$TMP/sonde.out" | awk '{print $2}') reads)"
