#!/usr/bin/env bash
# make demo: record a small real workload (a tar | gzip pipeline, several
# processes, thousands of syscalls), then print and summarise the trace.
set -eu
B=${1:-build}
SONDE=$B/sonde
out=$(mktemp -d /tmp/sonde-demo.XXXXXX)
trace=$out/demo.sonde
if [ "$(id -u)" -ne 0 ]; then
	echo "make demo: recording loads BPF programs and needs root; run: sudo make demo" >&2
	exit 1
fi
echo "== sonde record -o $trace -- sh -c 'tar -cf - include | gzip -1 | wc -c'"
$SONDE record -o "$trace" -- sh -c 'tar -cf - include | gzip -1 | wc -c'
echo
echo "== sonde print $trace | head -n 25"
$SONDE print "$trace" | head -n 25
echo "..."
echo
echo "== sonde print --format=flight $trace | grep -m 10 -v syscall"
$SONDE print --format=flight "$trace" | head -n 10
echo
echo "== sonde stat $trace"
$SONDE stat "$trace"
echo
echo "trace kept in $trace (0600); try: $SONDE print --json $trace | head"
