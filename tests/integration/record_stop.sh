#!/usr/bin/env bash
# How a recording ends: SIGINT with the command still running (clean file,
# blocked call recorded as unfinished, command untouched), SIGKILL of the
# recorder (every flushed chunk still readable, file reported truncated).
. "$(dirname "$0")/lib.sh"
need_root
CHECK=tests/integration/record_check.py

# SIGINT to sonde only: it finishes the file; sleep keeps running.
"$SONDE" record -o "$TMP/int.trace" -- sleep 30 2> "$TMP/int.err" &
rec=$!
for _ in $(seq 100); do
	cpid=$(pgrep -P "$rec" -x sleep) && break
	sleep 0.05
done
sleep 0.5
kill -INT "$rec"
wait "$rec"
st=$?
check "SIGINT: sonde reports the interruption (130) while the command runs on" [ "$st" -eq 130 ]
check "SIGINT: the command was not killed" kill -0 "$cpid"
"$SONDE" print --json "$TMP/int.trace" > "$TMP/int.json" 2> "$TMP/int.perr"
check "SIGINT: the file is complete (not truncated)" [ ! -s "$TMP/int.perr" ]
python3 "$CHECK" unfinished "$TMP/int.json" "SIGINT" "$cpid"
check "SIGINT: summary counts the unfinished call" grep -q '1 unfinished' "$TMP/int.err"
kill "$cpid"

# A process whose leader thread exited (zombie leader, live threads) is
# still followed to its end.
"$SONDE" record -q -o "$TMP/leader.trace" -- "$FIX/rec_leader"
check "leader exit: status 0" [ $? -eq 0 ]
"$SONDE" print --json "$TMP/leader.trace" > "$TMP/leader.json"
check "leader exit: all 15 calls of the remaining thread recorded" \
	[ "$(grep -c '"name":"close","nr":3,"args":\[9700\]' "$TMP/leader.json")" -eq 15 ]
check "leader exit: the process's end is recorded" \
	grep -q '"type":"exit".*"group_dead":true' "$TMP/leader.json"

# SIGKILL of the recorder: the file is readable up to its last flush.
"$SONDE" record -o "$TMP/kill.trace" -- "$FIX/rec_attach" "$TMP/kill.pid" "$TMP/never" &
rec=$!
sleep 2.6
kill -KILL "$rec"
wait "$rec" 2> /dev/null
kill "$(cat "$TMP/kill.pid")"
"$SONDE" print --json "$TMP/kill.trace" > "$TMP/kill.json" 2> "$TMP/kill.perr"
check "SIGKILL: sonde print reads the killed recorder's file" [ $? -eq 0 ]
check "SIGKILL: sonde print says the file is truncated" grep -q 'truncated' "$TMP/kill.perr"
python3 "$CHECK" partial "$TMP/kill.json" "SIGKILL" "$TMP/kill.pid"
exit 0
