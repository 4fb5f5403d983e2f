#!/usr/bin/env bash
# Two sonde builds compared on one payload-capture workload, interleaved:
# each round runs the workload untraced, then under build A, then under
# build B, so machine load (this is a shared 2-vCPU VM) weighs on both
# alike. Prints, per column, the median wall time of the workload (as
# bench/timed reports it) and its ratio to untraced, the median recorder
# CPU and payload bytes shed.
#
#   sudo bench/capture-ab.sh BUILD_A BUILD_B tar|dd|loop [ROUNDS]
#   env: RING=256M (sonde --ring-size), SNAPLEN=full, OUT=dir
#
# Build directories are those `make` fills (BUILD/sonde, BUILD/bench/timed);
# copy a build elsewhere (cp -r build /tmp/a) to keep it while changing
# the tree.
set -u
cd "$(dirname "$0")/.."
[ $# -ge 3 ] || { echo "usage: bench/capture-ab.sh BUILD_A BUILD_B tar|dd|loop [ROUNDS]" >&2; exit 2; }
A=$(cd "$1" && pwd) B=$(cd "$2" && pwd) W=$3 N=${4:-7}
RING=${RING:-256M} SNAPLEN=${SNAPLEN:-full}
OUT=${OUT:-$(mktemp -d /tmp/capture-ab.XXXXXX)}
[ "$(id -u)" -eq 0 ] || { echo "bench/capture-ab.sh: needs root (BPF)" >&2; exit 1; }
. bench/quiet.sh
bench_quiet bench/capture-ab.sh
for f in "$A/sonde" "$B/sonde" "$A/bench/timed"; do
	[ -x "$f" ] || { echo "bench/capture-ab.sh: $f missing; run 'make' first" >&2; exit 1; }
done
case $W in
tar) CMD=("$PWD/bench/tar.sh") ;;
dd) CMD=(dd if=/dev/zero of="$OUT/dd.out" bs=4k count=50000 status=none) ;;
loop) CMD=("$A/bench/loop" 1000000) ;;
*) echo "bench/capture-ab.sh: unknown workload $W (tar, dd or loop)" >&2; exit 2 ;;
esac
mkdir -p "$OUT"
rm -f "$OUT"/*.t "$OUT"/*.c
TIMED=$A/bench/timed

# Before every timed run: tar's input back in the page cache, dd's output
# deleted (bench/README.md, "Session 3").
warm() {
	case $W in
	tar) "${CMD[@]}" > /dev/null ;;
	dd) rm -f "$OUT/dd.out" ;;
	esac
}
for i in $(seq "$N"); do
	warm
	$TIMED "$OUT/none.t" "${CMD[@]}" > /dev/null
	for v in A B; do
		[ $v = A ] && S=$A/sonde || S=$B/sonde
		warm
		"$S" record --json -s "$SNAPLEN" --ring-size "$RING" -o "$OUT/$v.trace" -- \
			$TIMED "$OUT/$v.t" "${CMD[@]}" 2>&1 > /dev/null | grep '^{' |
			python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print(d["cpu_s"], d["payload_shed_bytes"], d["lost"])' \
			>> "$OUT/$v.c"
	done
done
rm -f "$OUT"/*.trace "$OUT/dd.out"

med() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }
base=$(awk '{ print $1 }' "$OUT/none.t" | med)
echo "| $W, $N rounds | wall | ratio | recorder CPU | shed bytes | lost |"
echo "|---|---|---|---|---|---|"
echo "| untraced | $base s | 1 | | | |"
for v in A B; do
	[ $v = A ] && name=$1 || name=$2
	w=$(awk '{ print $1 }' "$OUT/$v.t" | med)
	printf '| %s | %s s | %.2fx | %s s | %s | %s |\n' "$name" "$w" \
		"$(awk -v a="$w" -v b="$base" 'BEGIN { print a / b }')" \
		"$(awk '{ print $1 }' "$OUT/$v.c" | med)" "$(awk '{ print $2 }' "$OUT/$v.c" | med)" \
		"$(awk '{ print $3 }' "$OUT/$v.c" | med)"
done
echo "medians; raw: $OUT"
