#!/usr/bin/env bash
# Lossless capture: the syscall-loop benchmark (2 M iterations = 4 M
# syscalls) recorded with every syscall and scheduler event, default ring
# size: zero lost events, and exactly as many syscalls recorded as made
# (the count of a 0-iteration run gives the start-up and exit calls).
. "$(dirname "$0")/lib.sh"
need_root
LOOP=$PWD/build/bench/loop
N=2000000

count() { # trace -> number of syscall records, from sonde stat --json
	"$SONDE" stat --json "$1" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["total"]["calls"])'
}
lost() { # summary -> lost count
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["lost"])' "$1"
}

"$SONDE" record --json -o "$TMP/base.trace" -- "$LOOP" 0 > "$TMP/base.out" 2> "$TMP/base.sum"
"$SONDE" record --json -o "$TMP/loop.trace" -- "$LOOP" "$N" > "$TMP/loop.out" 2> "$TMP/loop.sum"
check "lossless: the loop ran" grep -q "loop: $((2 * N)) syscalls" "$TMP/loop.out"
check "lossless: zero lost events (summary)" [ "$(lost "$TMP/loop.sum")" = 0 ]
base=$(count "$TMP/base.trace")
got=$(count "$TMP/loop.trace")
echo "# recorded $got syscalls, $base outside the loop, $((2 * N)) made in the loop"
check "lossless: recorded syscalls == syscalls made ($((2 * N)) + $base)" \
	[ "$got" -eq $((2 * N + base)) ]
"$SONDE" print --json --events lost "$TMP/loop.trace" > "$TMP/lost.json"
check "lossless: no lost-event record in the trace" [ ! -s "$TMP/lost.json" ]
exit 0
