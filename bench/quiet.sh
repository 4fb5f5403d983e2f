# Sourced by the benchmarks: switches off kernel.bpf_stats_enabled for the
# run (restored on exit). Left on by a profiling session, it adds two clock
# reads to every BPF program run: the empty-program floor of the syscall
# loop went from 1.5x to 2.3x, and every BPF tracer's ratio with it.
bench_stats_off() {
	local f=/proc/sys/kernel/bpf_stats_enabled was
	[ -w "$f" ] || return 0
	was=$(cat "$f")
	[ "$was" = 0 ] && return 0
	echo "$1: kernel.bpf_stats_enabled was $was: off for this run (restored at exit)" >&2
	echo 0 > "$f"
	trap "echo $was > $f" EXIT
}
