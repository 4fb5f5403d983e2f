#!/usr/bin/env bash
# sonde record on processes it did not start: -p PID, --comm NAME on a
# running process, on an exec into NAME, on a rename to NAME.
. "$(dirname "$0")/lib.sh"
need_root
CHECK=tests/integration/record_check.py

# wait_for FILE [PATTERN]: up to 10 s for FILE to exist (and match PATTERN).
wait_for() {
	for _ in $(seq 200); do
		if [ -s "$1" ] && { [ $# -lt 2 ] || grep -q "$2" "$1"; }; then
			return 0
		fi
		sleep 0.05
	done
	return 1
}

# -p: attach, see the calls, the child created afterwards, stop by itself.
"$FIX/rec_attach" "$TMP/p.pid" "$TMP/p.go" &
fx=$!
wait_for "$TMP/p.pid"
"$SONDE" record -o "$TMP/p.trace" -p "$(cat "$TMP/p.pid")" 2> "$TMP/p.err" &
rec=$!
check "-p: recorder announces the attach" wait_for "$TMP/p.err" 'attached to process'
sleep 0.2
touch "$TMP/p.go"
wait "$fx"
timeout 20 tail --pid="$rec" -f /dev/null
wait "$rec"
check "-p: recording stops by itself when the process and its child are gone, status 0" \
	[ $? -eq 0 ]
"$SONDE" print --json "$TMP/p.trace" > "$TMP/p.json"
python3 "$CHECK" attach "$TMP/p.json" "-p" "$TMP/p.pid"

# --comm on a running process; stopped with SIGINT.
"$FIX/rec_attach" "$TMP/c.pid" "$TMP/c.go" &
fx=$!
wait_for "$TMP/c.pid"
"$SONDE" record -o "$TMP/c.trace" --comm rec_attach 2> "$TMP/c.err" &
rec=$!
check "--comm: recorder finds the running process" \
	wait_for "$TMP/c.err" "named 'rec_attach' (1 running now)"
sleep 0.2
touch "$TMP/c.go"
wait "$fx"
sleep 0.2
kill -INT "$rec"
wait "$rec"
check "--comm: SIGINT stops the recording, status 0" [ $? -eq 0 ]
"$SONDE" print --json "$TMP/c.trace" > "$TMP/c.json"
python3 "$CHECK" attach "$TMP/c.json" "--comm (running)" "$TMP/c.pid"

# --comm NAME catches an exec into NAME (rec_seq's child execs rec_child).
"$SONDE" record -o "$TMP/e.trace" --comm rec_child 2> "$TMP/e.err" &
rec=$!
wait_for "$TMP/e.err" 'following processes'
"$FIX/rec_seq" "$TMP/e.facts"
sleep 0.2
kill -TERM "$rec"
wait "$rec"
check "--comm: SIGTERM stops the recording, status 0" [ $? -eq 0 ]
"$SONDE" print --json "$TMP/e.trace" > "$TMP/e.json"
python3 "$CHECK" comm_exec "$TMP/e.json" "--comm (exec)" "$TMP/e.facts"

# --comm NAME catches a rename to NAME, and follows its children.
"$SONDE" record -o "$TMP/r.trace" --comm rec_renamed 2> "$TMP/r.err" &
rec=$!
wait_for "$TMP/r.err" 'following processes'
"$FIX/rec_rename" rec_renamed
sleep 0.2
kill -INT "$rec"
wait "$rec"
"$SONDE" print --json "$TMP/r.trace" > "$TMP/r.json"
python3 "$CHECK" comm_rename "$TMP/r.json" "--comm (rename)" rec_renamed

# -p on a thread blocked in a call: the call entered before recording
# began is recorded when it returns (flag entered_before_start, time from
# the attach: less than the 2.7 s left after the 0.3 s head start, by as
# much as sonde's start-up took, which is long on a loaded machine), and
# as unfinished if still blocked at the stop.
sleep 3 &
sp=$!
sleep 0.3
# (listed twice: the process is attached once)
"$SONDE" record -q -o "$TMP/b.trace" -p "$sp,$sp"
"$SONDE" print --json "$TMP/b.trace" > "$TMP/b.json"
check "-p PID,PID: one process record" [ "$(grep -c '"type":"proc"' "$TMP/b.json")" = 1 ]
check "-p: the call blocked at attach is recorded when it returns" python3 - "$TMP/b.json" <<'PY'
import json, sys
c = [o for o in map(json.loads, open(sys.argv[1]))
     if o["type"] == "syscall" and o["name"] == "clock_nanosleep"]
assert len(c) == 1 and c[0].get("entered_before_start") is True, c
assert c[0]["ret"] == 0 and 0.3e9 < c[0]["dur"] < 2.75e9, c
assert not c[0]["unfinished"], c
PY
"$SONDE" print "$TMP/b.trace" > "$TMP/b.txt"
check "-p: text marks it" grep -q '^\[pid *[0-9]*\] clock_nanosleep(.*= 0 <.*> (entered before recording began)$' "$TMP/b.txt"
sleep 30 &
sp=$!
sleep 0.3
"$SONDE" record -q -o "$TMP/u.trace" -p "$sp" &
rec=$!
sleep 0.5
kill -INT "$rec"
wait "$rec"
kill "$sp"
"$SONDE" print --json "$TMP/u.trace" > "$TMP/u.json"
check "-p: still blocked at the stop: unfinished, entered before the start" python3 - "$TMP/u.json" <<'PY'
import json, sys
c = [o for o in map(json.loads, open(sys.argv[1]))
     if o["type"] == "syscall" and o["name"] == "clock_nanosleep"]
assert len(c) == 1 and c[0]["unfinished"] and c[0].get("entered_before_start"), c
assert c[0]["args"][0] == 0, c
PY
exit 0
