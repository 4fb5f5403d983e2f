#!/usr/bin/env bash
# The cost of fault injection per tampered call, side by side: the syscall
# loop (bench/loop: read + write of 64 bytes, the loop's own clock)
# untraced, under sonde strace (-s 0, no injection), under sonde strace
# with every read of the loop answered by its supervisor (-e
# inject=read:retval=64:when=2+, the first being ld.so's of libc;
# the loop takes 64 for a whole read), and under strace -f with the
# same -e inject=. Rounds are interleaved; prints, per run, the median loop
# time and the cost per read beyond the untraced loop (per call for the
# run without injection).
#
#   sudo bench/inject.sh [BUILD] [ROUNDS]
#   env: N=100000 (iterations under sonde), NSLOW=20000 (strace)
set -u
cd "$(dirname "$0")/.."
B=$(cd "${1:-build}" && pwd)
R=${2:-5}
N=${N:-100000} NSLOW=${NSLOW:-20000}
OUT=$(mktemp -d /tmp/inject-bench.XXXXXX)
. bench/quiet.sh
bench_need bench/inject.sh "$B"
bench_quiet bench/inject.sh
L=$B/bench/loop
INJ=inject=read:retval=64:when=2+

for ((i = 0; i < R; i++)); do
	bench_loop untraced "$N"
	bench_loop sonde "$N" "$B/sonde" strace -f -o /dev/null --snaplen 0
	bench_loop sonde-inject "$N" "$B/sonde" strace -f -o /dev/null --snaplen 0 -e "$INJ"
	command -v strace > /dev/null && bench_loop strace-inject "$NSLOW" strace -f -o /dev/null -e "$INJ"
done
base=$(median < "$OUT/untraced")
printf '%-14s %10s %8s %16s\n' run "loop (s)" reads "ns per read"
for t in untraced sonde sonde-inject strace-inject; do
	[ -s "$OUT/$t" ] || continue
	n=$N
	[ "$t" = strace-inject ] && n=$NSLOW
	m=$(median < "$OUT/$t")
	# beyond the untraced loop's time for as many iterations
	awk -v t="$t" -v m="$m" -v b="$base" -v n="$n" -v nb="$N" 'BEGIN {
		printf "%-14s %10.4f %8d %16.0f\n", t, m, n, (m - b * n / nb) / n * 1e9 }'
done
rm -rf "$OUT"
