#!/usr/bin/env bash
# Differential check against Debian's strace -f: for real commands, the
# sequence of syscall names of every thread/process sonde records equals
# the one strace records (threads matched by creation order).
. "$(dirname "$0")/lib.sh"
need_root
CHECK=tests/integration/record_check.py
command -v strace > /dev/null || { notok "strace: strace is not installed (scripts/deps.sh)"; exit 0; }

diff_one() { # label cmd...
	local label=$1; shift
	(cd "$TMP" && strace -f -qq -o "$TMP/strace.out" "$@" > "$TMP/out1" 2>&1)
	(cd "$TMP" && "$SONDE" record -q -o "$TMP/d.trace" -- "$@" > "$TMP/out2" 2>&1)
	check "$label: same output under strace and sonde" cmp -s "$TMP/out1" "$TMP/out2"
	"$SONDE" print --json "$TMP/d.trace" > "$TMP/d.json"
	python3 "$CHECK" diff "$TMP/d.json" "$label" "$TMP/strace.out"
}

diff_one "ls -la /usr" ls -la /usr
diff_one "sh -c 'cat /etc/passwd | wc -l'" sh -c 'cat /etc/passwd | wc -l'
exit 0
