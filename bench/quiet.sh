# Sourced by the benchmarks: `bench_quiet NAME` sets two kernel knobs for
# the run and restores them on exit, saying so on stderr.
#
# kernel.bpf_stats_enabled: left on by a profiling session, it adds two
# clock reads to every BPF program run: the empty-program floor of the
# syscall loop went from 1.5x to 2.3x, and every BPF tracer's ratio with it.
#
# Free page reporting (virtio-balloon; /sys/module/page_reporting): the VMs
# these benchmarks run on hand every free 128 KiB block back to the host at
# once (page_reporting_order 5, min_free_ms 0), so a page the guest
# allocates next costs a host fault: 1-13 us per 4 KiB page here, against
# ~0.2 us on bare metal (bench/README.md, "Session 3"). With sonde's old
# 64M rings it made tar's runs under sonde bimodal. PAGE_REPORTING=keep
# (the default) measures the VM as configured; PAGE_REPORTING=pause raises
# the order to 10 (only free 4 MiB blocks are reported) for the run.
bench_restore=""

bench_set() {
	local name=$1 f=$2 val=$3 was
	[ -w "$f" ] || return 0
	was=$(cat "$f")
	[ "$was" = "$val" ] && return 0
	echo "$name: $f was $was: $val for this run (restored at exit)" >&2
	echo "$val" > "$f"
	bench_restore="echo $was > $f; $bench_restore"
	trap "$bench_restore" EXIT
}

bench_quiet() {
	bench_set "$1" /proc/sys/kernel/bpf_stats_enabled 0
	[ "${PAGE_REPORTING:-keep}" = pause ] || return 0
	bench_set "$1" /sys/module/page_reporting/parameters/page_reporting_order 10
}

# The helpers the benchmarks share.
# median: the median of the numbers on standard input (the mean of the
# middle two for an even count).
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# bench_need NAME BUILD: root (BPF), BUILD/sonde and BUILD/bench/loop, or
# NAME says what is missing and the run ends.
bench_need() {
	[ "$(id -u)" -eq 0 ] || { echo "$1: needs root (BPF)" >&2; exit 1; }
	[ -x "$2/sonde" ] && [ -x "$2/bench/loop" ] ||
		{ echo "$1: $2/sonde or $2/bench/loop missing; run 'make'" >&2; exit 1; }
}
# bench_loop NAME ITER CMD...: CMD running $L (bench/loop) for ITER
# iterations; the loop's own seconds appended to $OUT/NAME.
bench_loop() {
	local name=$1 n=$2
	shift 2
	"$@" "$L" "$n" 2>&1 | awk '/^loop:/ { print $4 }' | tail -1 >> "$OUT/$name"
}
