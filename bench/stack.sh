#!/usr/bin/env bash
# The cost of a user stack per syscall, side by side: the syscall loop
# (bench/loop: read + write of 64 bytes, the loop's own clock) untraced,
# under sonde record -s 0 without and with --user-stack, under strace -f
# -k, under perf trace --call-graph dwarf and under bpftrace collecting
# ustack (frame pointers only: Debian's libraries have none, so its
# stacks stop early; there for its cost). Rounds are interleaved, so
# machine load weighs on all alike; prints, per tracer, the median loop
# time and the cost per call beyond the untraced loop.
#
#   sudo bench/stack.sh [BUILD] [ROUNDS]
#   env: N=200000 (iterations under sonde), NSLOW=20000 (strace, perf)
set -u
cd "$(dirname "$0")/.."
B=$(cd "${1:-build}" && pwd)
R=${2:-5}
N=${N:-200000} NSLOW=${NSLOW:-20000}
OUT=$(mktemp -d /tmp/stack-bench.XXXXXX)
. bench/quiet.sh
bench_need bench/stack.sh "$B"
bench_quiet bench/stack.sh
L=$B/bench/loop

have() { command -v "$1" > /dev/null; }
for ((i = 0; i < R; i++)); do
	bench_loop untraced "$N"
	bench_loop sonde "$N" "$B/sonde" record -q -s 0 --ring-size 16M -o "$OUT/a.trace" --
	bench_loop sonde-ustack "$N" "$B/sonde" record -q -s 0 --user-stack -o "$OUT/b.trace" --
	have strace && bench_loop strace-k "$NSLOW" strace -f -k -o /dev/null
	have perf && bench_loop perf-dwarf "$NSLOW" perf trace --call-graph dwarf -o /dev/null --
	have bpftrace && bench_loop bpftrace-ustack "$N" bpftrace -q -e \
		'tracepoint:raw_syscalls:sys_exit /pid == cpid/ { @[ustack] = count(); }' -c
done
base=$(median < "$OUT/untraced")
printf '%-16s %10s %8s %14s\n' tracer "loop (s)" calls "ns per call"
for t in untraced sonde sonde-ustack strace-k perf-dwarf bpftrace-ustack; do
	[ -s "$OUT/$t" ] || continue
	n=$N
	case $t in strace-k | perf-dwarf) n=$NSLOW ;; esac
	m=$(median < "$OUT/$t")
	# the untraced loop's time per call, scaled to this run's count
	awk -v t="$t" -v m="$m" -v b="$base" -v n="$n" -v nb="$N" 'BEGIN {
		printf "%-16s %10.4f %8d %14.0f\n", t, m, 2 * n, (m - b * n / nb) / (2 * n) * 1e9 }'
done
"$B/sonde" stat "$OUT/b.trace" > /dev/null 2>&1 ||
	echo "bench/stack.sh: the --user-stack trace does not read back" >&2
rm -rf "$OUT"
