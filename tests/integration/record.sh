#!/usr/bin/env bash
# sonde record on a fixture with a known syscall sequence in three threads, a
# forked child that execs another fixture and a vfork child: every marker call
# with its raw arguments and return value, in order per thread; fork, exec and
# exit records; exit status propagation; file mode; summary.
. "$(dirname "$0")/lib.sh"
need_root
CHECK=tests/integration/record_check.py

T=$TMP/seq.trace
"$SONDE" record --json -o "$T" -- "$FIX/rec_seq" "$TMP/facts" 2> "$TMP/summary"
st=$?
check "record: sonde exits with the command's status (3)" [ "$st" -eq 3 ]
check "record: trace file created 0600" [ "$(stat -c %a "$T")" = 600 ]
check "record: --json summary is one JSON object with zero lost" \
	python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); sys.exit(not (s["lost"] == 0 and s["syscalls"] > 50 and s["status"] == 3 << 8))' "$TMP/summary"
"$SONDE" print --json "$T" > "$TMP/seq.json"
check "record: sonde print --json reads the trace" [ -s "$TMP/seq.json" ]
python3 "$CHECK" seq "$TMP/seq.json" "$TMP/facts"

# Default output file name, in the current directory.
(cd "$TMP" && "$SONDE" record -q -- true)
check "record: default output is ./sonde.trace" [ -s "$TMP/sonde.trace" ]

# Killed by a signal: 128 + signal number, like a shell.
"$SONDE" record -q -o "$TMP/kill.trace" -- sh -c 'kill -TERM $$'
st=$?
check "record: command killed by SIGTERM gives status 143" [ "$st" -eq 143 ]
"$SONDE" print --json "$TMP/kill.trace" > "$TMP/kill.json"
check "record: exit record names the signal" grep -q '"type":"exit".*"signal_name":"SIGTERM"' "$TMP/kill.json"

# The text summary reports events, bytes and losses.
"$SONDE" record -o "$TMP/sum.trace" -- true 2> "$TMP/sum.txt"
check "record: text summary on stderr (events, bytes, lost)" \
	grep -q 'events in .* 0 lost' "$TMP/sum.txt"
check "record: help text" sh -c '"$0" help record | grep -q -- "--failed-only"' "$SONDE"
exit 0
