#!/usr/bin/env bash
# Payload capture overhead, side by side in one run (docs/design/payloads.md).
#
#   sudo bench/capture.sh [BUILD_DIR]
#   env: REPEAT=3 (runs per cell, median kept), DD_COUNT=50000 (4 KiB
#        blocks), SNAPLEN=full, RING=256M (sonde --ring-size; "default"
#        for the 64M default), OUT=dir (default BUILD_DIR/bench-capture),
#        BUFFER=default (sonde --buffer-size: user-space chunk buffers
#        made ready before the command starts; "default" = 64M),
#        PAGE_REPORTING=keep|pause (bench/quiet.sh),
#        TRACERS="none sonde strace" (the columns to run; strace takes
#        minutes; also floor and sonde0, below), WORKLOADS="tar dd fio"
#
# Workloads, each timed by bench/timed (the workload's own wall time;
# tracer start-up and tear-down are not counted):
#   tar  tar -cf - /usr/include | cat > /dev/null   (every byte moved 4x)
#   dd   dd if=/dev/zero of=FILE bs=4k count=DD_COUNT   (file writes into
#        the page cache: CPU-bound, the costliest case for capture)
#   fio  fio --rw=randrw --bs=4k --size=64M --direct=1 --ioengine=psync
#        (4 KiB random reads and writes that reach the disk, O_DIRECT)
# Tracers:
#   none    untraced (ratio 1)
#   sonde   sonde record -s SNAPLEN --ring-size RING (every buffer of file
#           and pipe I/O, up to SNAPLEN per call, into the deduplicated
#           payload store; with the 64M default ring tar sheds payloads on
#           a 2-CPU machine: the rings fill faster than they drain)
#   strace  strace -f -s 65536 -e read=all -e write=all -o FILE
#   floor   bench/floor: empty BPF programs on sys_enter and sys_exit, what
#           any tracer built on those tracepoints pays before any work (a
#           ratio target below it cannot be met by one)
#   sonde0  sonde record -s 0 (no payloads): the syscall records alone
# Cells run round robin so machine noise spreads over all of them, each
# round starting one tracer further along (as bench/run.sh). Prints
# the ratios, then sonde's lost events, payload bytes captured / stored
# (dedup ratio) / shed, recorder CPU and bytes on disk, and strace's
# output size.
set -u
cd "$(dirname "$0")/.."
B=${1:-build}
REPEAT=${REPEAT:-3}
DD_COUNT=${DD_COUNT:-50000}
SNAPLEN=${SNAPLEN:-full}
RING=${RING:-256M}
BUFFER=${BUFFER:-default}
RINGOPT=()
[ "$RING" = default ] || RINGOPT=(--ring-size "$RING")
[ "$BUFFER" = default ] || RINGOPT+=(--buffer-size "$BUFFER")
OUT=${OUT:-$B/bench-capture}
SONDE=$PWD/$B/sonde
TIMED=$PWD/$B/bench/timed

[ "$(id -u)" -eq 0 ] || { echo "bench/capture.sh: needs root (BPF)" >&2; exit 1; }
. bench/quiet.sh
bench_quiet bench/capture.sh
for f in "$SONDE" "$TIMED"; do
	[ -x "$f" ] || { echo "bench/capture.sh: $f missing; run 'make' first" >&2; exit 1; }
done
command -v strace > /dev/null || echo "bench/capture.sh: strace not found: its column stays empty" >&2
WORKLOADS=${WORKLOADS:-tar dd fio}
if [[ " $WORKLOADS " == *" fio "* ]] && ! command -v fio > /dev/null; then
	echo "bench/capture.sh: fio not found (make deps installs it): fio skipped" >&2
	WORKLOADS=${WORKLOADS/fio/}
fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
rm -f "$OUT"/*.times "$OUT"/*.json "$OUT"/*.strace "$OUT"/*.trace

declare -A WL=(
	[tar]="$PWD/bench/tar.sh"
	[dd]="dd if=/dev/zero of=$OUT/dd.out bs=4k count=$DD_COUNT status=none"
	[fio]="fio --name=randrw --filename=$OUT/fio.dat --rw=randrw --bs=4k --size=64M --direct=1 --ioengine=psync"
)
read -r -a TRACERS <<< "${TRACERS:-none sonde strace}"

# Before every timed run, whatever the tracer: the dirty pages of the last
# run written back (strace's output is ~2.9 GB, and its writeback
# throttled the dd run after it to 3.5x), tar's input back in the page
# cache (it does not stay there on these VMs, bench/README.md), dd's
# output file deleted, so that no run times the freeing of the last one's.
warm() {
	sync
	case $1 in
	tar) ${WL[tar]} > /dev/null ;;
	dd) rm -f "$OUT/dd.out" ;;
	esac
}

run_one() {
	local t=$1 w=$2 times=$OUT/$1.$2.times cmd=${WL[$2]}
	warm "$w"
	case $t in
	none) $TIMED "$times" $cmd > /dev/null ;;
	sonde)
		"$SONDE" record --json -s "$SNAPLEN" "${RINGOPT[@]}" -o "$OUT/sonde.$w.trace" -- \
			$TIMED "$times" $cmd > /dev/null 2>> "$OUT/sonde.$w.json" ;;
	strace)
		command -v strace > /dev/null || return 0
		strace -f -s 65536 -e read=all -e write=all -o "$OUT/strace.$w.strace" \
			$TIMED "$times" $cmd > /dev/null ;;
	floor) "$PWD/$B/bench/floor" $TIMED "$times" $cmd > /dev/null ;;
	sonde0)
		"$SONDE" record -q -s 0 "${RINGOPT[@]}" -o "$OUT/sonde0.$w.trace" -- \
			$TIMED "$times" $cmd > /dev/null ;;
	esac
	[ $? -eq 0 ] || echo "bench/capture.sh: $t on $w failed" >&2
}

for w in $WORKLOADS; do
	# Warm the page cache and the binaries (and lay out fio's file).
	${WL[$w]} > /dev/null
	for i in $(seq "$REPEAT"); do
		for k in "${!TRACERS[@]}"; do
			run_one "${TRACERS[$(((i + k) % ${#TRACERS[@]}))]}" "$w"
		done
	done
done
rm -f "$OUT/dd.out" "$OUT/fio.dat"

sfield() {
	python3 -c 'import json,sys; print("\n".join(str(json.loads(l)[sys.argv[2]]) for l in open(sys.argv[1]) if l.startswith("{")))' "$1" "$2" | median
}

declare -A COL=(
	[floor]="empty BPF (floor)" [sonde0]="sonde -s 0 ${RINGOPT[*]}"
	[sonde]="sonde -s $SNAPLEN ${RINGOPT[*]}"
	[strace]="strace -f -s 65536 -e read=all -e write=all"
)
SHOWN=()
for t in floor sonde0 sonde strace; do
	[[ " ${TRACERS[*]} " == *" $t "* ]] && SHOWN+=("$t")
done
row="| workload | untraced"
for t in "${SHOWN[@]}"; do row+=" | ${COL[$t]}"; done
echo "$row |"
echo "|---|---$(printf '|---%.0s' "${SHOWN[@]}")|"
for w in $WORKLOADS; do
	base=$(awk '{ print $1 }' "$OUT/none.$w.times" | median)
	row="| $w | $base s"
	for t in "${SHOWN[@]}"; do
		f=$OUT/$t.$w.times
		if [ ! -s "$f" ]; then row+=" | n/a"; continue; fi
		m=$(awk '{ print $1 }' "$f" | median)
		row+=" | $(awk -v a="$m" -v b="$base" 'BEGIN { printf "%.2fx (%.3f s)", a / b, a }')"
	done
	echo "$row |"
done

echo
echo "| sonde | syscalls | lost | payload captured | stored | dedup | shed | recorder CPU | bytes on disk | strace output |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for w in $WORKLOADS; do
	j=$OUT/sonde.$w.json
	[ -s "$j" ] || continue
	st=$(stat -c %s "$OUT/strace.$w.strace" 2> /dev/null || echo 0)
	printf '| %s | %s | %s | %s | %s | %sx | %s | %s s | %s | %s |\n' "$w" \
		"$(sfield "$j" syscalls)" "$(sfield "$j" lost)" "$(sfield "$j" payload_bytes)" \
		"$(sfield "$j" payload_stored)" "$(sfield "$j" payload_dedup)" \
		"$(sfield "$j" payload_shed_bytes)" "$(sfield "$j" cpu_s)" \
		"$(sfield "$j" file_bytes)" "$st"
done
echo
echo "medians of $REPEAT runs; raw times in $OUT/*.times, summaries in $OUT/sonde.*.json"
