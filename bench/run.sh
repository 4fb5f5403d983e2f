#!/usr/bin/env bash
# Recorder overhead, side by side in one run (see bench/README.md).
#
#   bench/run.sh [BUILD_DIR]        (make bench)
#   env: REPEAT=5 (runs per cell, median kept), SLOW_REPEAT=1 (runs of
#        strace, perf trace and bpftrace on the loop: ~3 min each),
#        LOOP_N=2000000, WORKLOADS="tar loop", OUT=dir for traces and raw numbers (default
#        BUILD_DIR/bench-results), PAGE_REPORTING=keep|pause (bench/quiet.sh),
#        TRACERS="none floor sonde strace perf bpftrace" (the columns to run)
#
# For each workload (the syscall loop, tar of /usr/include into a pipe) and
# each tracer (none, empty BPF programs, sonde, strace -f, perf trace,
# bpftrace printing every sys_enter/sys_exit of the workload), runs the
# workload under bench/timed and keeps its wall time; cells are run round
# robin so machine noise spreads over all tracers, each round starting one
# tracer further along (a run's place in its round biases it: an A/A test
# of one build measured 5 % between the second and third place, and sonde
# always ran third). Prints a markdown table
# of medians and ratios to the untraced run; raw numbers go to OUT/raw.tsv.
set -u
cd "$(dirname "$0")/.."
B=${1:-build}
REPEAT=${REPEAT:-5}
SLOW_REPEAT=${SLOW_REPEAT:-1}
LOOP_N=${LOOP_N:-2000000}
# tar first: the loop phase leaves hundreds of MB of strace and perf
# output in the page cache, which the VM's DAMON pageout and free page
# reporting then work through while tar, the workload that allocates and
# reads pages, runs (bench/README.md, "Session 4").
WORKLOADS=${WORKLOADS:-tar loop}
OUT=${OUT:-$B/bench-results}
SONDE=$PWD/$B/sonde
TIMED=$PWD/$B/bench/timed
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
RAW=$OUT/raw.tsv

[ "$(id -u)" -eq 0 ] || { echo "bench/run.sh: needs root (BPF, perf, bpftrace)" >&2; exit 1; }
for f in "$SONDE" "$TIMED" "$PWD/$B/bench/loop" "$PWD/$B/bench/floor"; do
	[ -x "$f" ] || { echo "bench/run.sh: $f missing; run 'make' first" >&2; exit 1; }
done
if [ ! -e /sys/kernel/tracing/events ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2> /dev/null ||
		echo "bench/run.sh: cannot mount tracefs at /sys/kernel/tracing: perf trace will fail" >&2
fi

. bench/quiet.sh
bench_quiet bench/run.sh

declare -A WL=(
	[loop]="$PWD/$B/bench/loop $LOOP_N"
	[tar]="$PWD/bench/tar.sh"
)
# Run untimed before every timed run of a workload, whatever the tracer:
# tar's input must be in the page cache each time, and on these VMs it
# does not stay there (bench/README.md, "Page cache").
declare -A WARM=(
	[loop]=""
	[tar]="$PWD/bench/tar.sh"
)
read -r -a TRACERS <<< "${TRACERS:-none floor sonde strace perf bpftrace}"

# bpftrace: the workload's process tree (cpid and its descendants) in a
# map, every entry and exit printed.
BT_PROG='BEGIN { @t[cpid] = 1; }
tracepoint:sched:sched_process_fork /@t[args->parent_pid]/ { @t[args->child_pid] = 1; }
tracepoint:raw_syscalls:sys_enter /@t[pid]/ { printf("%d %d > %d\n", pid, tid, args->id); }
tracepoint:raw_syscalls:sys_exit /@t[pid]/ { printf("%d %d < %d %d\n", pid, tid, args->id, args->ret); }
END { clear(@t); }'

# run_one TRACER WORKLOAD RUN: appends "wall user sys" to $OUT/T.W.times
# The sync first: strace's and perf's output of the loop is hundreds of
# MB, and its writeback must not land in the next tracer's timed run.
run_one() {
	local t=$1 w=$2 i=$3 times=$OUT/$1.$2.times cmd=${WL[$2]}
	sync
	[ -z "${WARM[$w]}" ] || ${WARM[$w]} > /dev/null
	case $t in
	none) $TIMED "$times" $cmd > /dev/null ;;
	floor) "$PWD/$B/bench/floor" $TIMED "$times" $cmd > /dev/null ;;
	sonde)
		# Metadata only (-s 0), as the recorder-core targets are defined:
		# every syscall + sched events; capture is measured by capture.sh.
		"$SONDE" record -s 0 --json -o "$OUT/sonde.$w.trace" -- $TIMED "$times" $cmd \
			> /dev/null 2>> "$OUT/sonde.$w.json" ;;
	strace) strace -f -o "$OUT/strace.$w.txt" $TIMED "$times" $cmd > /dev/null ;;
	perf)
		perf trace -o "$OUT/perf.$w.txt" -- $TIMED "$times" $cmd > /dev/null \
			2>> "$OUT/perf.$w.err" ;;
	bpftrace)
		bpftrace -o "$OUT/bpftrace.$w.txt" -e "$BT_PROG" -c "$TIMED $times $cmd" \
			> /dev/null 2>> "$OUT/bpftrace.$w.err" ;;
	esac
	[ $? -eq 0 ] || echo "bench/run.sh: $t on $w failed (run $i)" >&2
}

rm -f "$OUT"/*.times "$OUT"/sonde.*.json "$OUT"/*.err
for w in $WORKLOADS; do
	# Warm the page cache (tar reads /usr/include) and the binaries.
	${WL[$w]} > /dev/null
	for i in $(seq "$REPEAT"); do
		round=()
		for t in "${TRACERS[@]}"; do
			case $t in strace | perf | bpftrace)
				command -v "$t" > /dev/null || continue
				[ "$w" = loop ] && [ "$i" -gt "$SLOW_REPEAT" ] && continue ;;
			esac
			round+=("$t")
		done
		for k in "${!round[@]}"; do
			run_one "${round[$(((i + k) % ${#round[@]}))]}" "$w" "$i"
		done
	done
done

col() { awk -v c="$1" '{ print $c }' "$2"; }
# sonde's summaries: median of a --json field over the runs
sfield() {
	python3 -c 'import json,sys; print("\n".join(str(json.loads(l)[sys.argv[2]]) for l in open(sys.argv[1]) if l.startswith("{")))' "$1" "$2" | median
}

# ratio_table TITLE EXPR: EXPR (awk, over the columns wall user sys of a
# .times file) per run, median per cell, ratio to the untraced median.
ratio_table() {
	local title=$1 expr=$2 w t base m r row
	echo "$title"
	echo
	echo "| workload | untraced | empty BPF (floor) | sonde | strace -f | perf trace | bpftrace |"
	echo "|---|---|---|---|---|---|---|"
	for w in $WORKLOADS; do
		base=$(awk "{ print $expr }" "$OUT/none.$w.times" | median)
		row="| $w | ${base} s"
		for t in floor sonde strace perf bpftrace; do
			f=$OUT/$t.$w.times
			if [ ! -s "$f" ]; then row+=" | n/a"; continue; fi
			m=$(awk "{ print $expr }" "$f" | median)
			r=$(awk -v a="$m" -v b="$base" 'BEGIN { printf "%.2f", a / b }')
			row+=" | ${r}x"
		done
		echo "$row |"
	done
	echo
}
ratio_table "Wall time of the workload (median), ratio to untraced:" '$1'
ratio_table "CPU time of the workload (user+sys, in-kernel tracing included; median):" '$2 + $3'

printf 'workload\ttracer\twall_s\tratio\tuser_s\tsys_s\n' > "$RAW"
for w in $WORKLOADS; do
	base=$(col 1 "$OUT/none.$w.times" | median)
	for t in "${TRACERS[@]}"; do
		f=$OUT/$t.$w.times
		[ -s "$f" ] || continue
		awk -v w="$w" -v t="$t" -v b="$base" '{ printf "%s\t%s\t%s\t%.3f\t%s\t%s\n", w, t, $1, $1 / b, $2, $3 }' "$f" >> "$RAW"
	done
done

echo "| sonde | syscalls | events | lost | recorder CPU | bytes on disk | bytes/syscall | bytes/event | events/s |"
echo "|---|---|---|---|---|---|---|---|---|"
for w in $WORKLOADS; do
	j=$OUT/sonde.$w.json
	[ -s "$j" ] || continue
	sc=$(sfield "$j" syscalls); ev=$(sfield "$j" events); lost=$(sfield "$j" lost)
	cpu=$(sfield "$j" cpu_s); fb=$(sfield "$j" file_bytes)
	wall=$(col 1 "$OUT/sonde.$w.times" | median)
	awk -v w="$w" -v sc="$sc" -v ev="$ev" -v lost="$lost" -v cpu="$cpu" -v fb="$fb" -v wall="$wall" \
		'BEGIN { printf "| %s | %d | %d | %d | %.3f s | %d | %.2f | %.2f | %.0f |\n",
			w, sc, ev, lost, cpu, fb, fb / sc, fb / ev, ev / wall }'
done
for w in $WORKLOADS; do
	for t in perf bpftrace; do
		f=$OUT/$t.$w.err
		[ -s "$f" ] && grep -qi 'lost' "$f" &&
			echo "note: $t on $w reported lost events: $(grep -i lost "$f" | head -1)"
	done
done
echo
echo "raw numbers: $RAW (wall/user/sys of the workload per run); traces in $OUT"
