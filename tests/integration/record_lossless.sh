#!/usr/bin/env bash
# Lossless capture: the syscall-loop benchmark (2 M iterations = 4 M
# syscalls) recorded with every syscall and scheduler event, default ring
# size: zero lost events, and exactly as many syscalls recorded as made
# (the count of a 0-iteration run gives the start-up and exit calls).
# Then the opposite: a 64K ring and a recorder stopped with SIGSTOP while
# the loop runs, so most records cannot be stored; every one of them must
# be accounted for, in the summary and as LOST records in the trace
# (without payloads or scheduler events, every record lost is a syscall or
# one of the run's few process records).
# Once more with scheduler events, which share the kernel-side batches
# with syscall records: no syscall may go missing without being counted.
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

# Zero loss with the default ring is the product build's guarantee, checked
# there. An ASan/UBSan build's recorder needs twice the CPU (2.4-3.5 s
# against 1.3 s for this loop and its 64-byte payloads, 2026-11-25), so how
# far it falls behind depends on the machine: one CI run lost 1.4 % with
# the default ring, another 2.4 % with a 256M ring. Under the sanitizers
# the lossless part checks the accounting, not the speed: 150 K iterations
# (300 K syscalls, each with a 64-byte payload) stay below the half of a
# 256M ring at which payloads start to be shed, even if the recorder never
# drains it (tried with the recorder stopped for the whole loop: 0 lost,
# 0 shed; 200 K iterations shed payloads, 400 K lost syscalls).
NL=$N
ring=()
sanitized && NL=150000 ring=(--ring-size 256M)
"$SONDE" record --json -o "$TMP/base.trace" -- "$LOOP" 0 > "$TMP/base.out" 2> "$TMP/base.sum"
"$SONDE" record --json "${ring[@]}" -o "$TMP/loop.trace" -- "$LOOP" "$NL" > "$TMP/loop.out" \
	2> "$TMP/loop.sum"
check "lossless: the loop ran" grep -q "loop: $((2 * NL)) syscalls" "$TMP/loop.out"
check "lossless: zero lost events (summary)" [ "$(lost "$TMP/loop.sum")" = 0 ]
base=$(count "$TMP/base.trace")
got=$(count "$TMP/loop.trace")
echo "# recorded $got syscalls, $base outside the loop, $((2 * NL)) made in the loop"
check "lossless: recorded syscalls == syscalls made ($((2 * NL)) + $base)" \
	[ "$got" -eq $((2 * NL + base)) ]
"$SONDE" print --json --events lost "$TMP/loop.trace" > "$TMP/lost.json"
check "lossless: no lost-event record in the trace" [ ! -s "$TMP/lost.json" ]

# What a full ring may drop besides syscalls in the lossy runs (no
# payloads, no scheduler events): the run's few process records, as many
# as the reference run made.
nproc=$("$SONDE" print --json --events process "$TMP/base.trace" | wc -l)
in_range() { [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }

# lossy_run NAME [RECORD OPTIONS]: the loop into a 64K ring, recorder
# stopped for 0.5 s; sets nlost (summary), got (the loop's 64-byte reads
# and writes recorded), all (every syscall recorded) and inrec (sum of the
# LOST records' counts).
lossy_run() {
	local name=$1 spid
	shift
	"$SONDE" record -s 0 --json "$@" --ring-size 64K -o "$TMP/$name.trace" -- "$LOOP" "$N" \
		> "$TMP/$name.out" 2> "$TMP/$name.sum" &
	spid=$!
	sleep 0.5
	kill -STOP $spid
	sleep 0.5
	kill -CONT $spid
	wait $spid
	check "$name: the loop ran" grep -q "loop: $((2 * N)) syscalls" "$TMP/$name.out"
	nlost=$(lost "$TMP/$name.sum")
	got=$("$SONDE" print --strace -e trace=read,write "$TMP/$name.trace" |
		grep -cE ', 64\) += 64$')
	all=$(count "$TMP/$name.trace")
	inrec=$("$SONDE" print --json --events lost "$TMP/$name.trace" |
		python3 -c 'import json,sys; print(sum(json.loads(l)["count"] for l in sys.stdin))')
	echo "# $name: recorded $got of the loop's syscalls ($all in all), lost $nlost, LOST records count $inrec"
	check "$name: a stopped consumer and a 64K ring lose events" [ "$nlost" -gt 0 ]
	check "$name: the LOST records in the trace add up to the summary's count" \
		[ "$inrec" = "$nlost" ]
	# stat's tables miss the lost calls: it says so, and --json counts them.
	"$SONDE" stat "$TMP/$name.trace" > /dev/null 2> "$TMP/$name.stat"
	check "$name: stat warns of the $nlost lost events" \
		grep -q "warning: .*: $nlost events were lost while recording" "$TMP/$name.stat"
	check "$name: stat --json says how many were lost" \
		[ "$("$SONDE" stat --json "$TMP/$name.trace" 2> /dev/null |
			python3 -c 'import json,sys; print(json.load(sys.stdin)["lost"])')" = "$nlost" ]
}

# Every syscall made is recorded or counted lost; the count may exceed the
# missing calls only by process records lost too. (Losses usually fall in
# the loop, but on a busy machine the stop can come before the loop starts,
# and start-up calls go missing instead: 7 of them in a run while a fuzzer
# held the other CPU.)
lossy_run lossy --no-sched
check "lossy: recorded + lost == syscalls made ($((2 * N)) + $base), + up to $nproc process records" \
	in_range $((all + nlost - 2 * N - base)) 0 "$nproc"
check "lossy: the loop's calls recorded + lost >= $((2 * N))" [ $((got + nlost)) -ge $((2 * N)) ]
# With switches and wakeups lost too, lost may exceed the missing calls,
# never fall short of them.
lossy_run lossy-sched
check "lossy-sched: recorded + lost >= syscalls made ($((2 * N)) + $base)" \
	[ $((all + nlost)) -ge $((2 * N + base)) ]
exit 0
