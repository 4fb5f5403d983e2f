#!/usr/bin/env bash
# Live output of sonde strace: a call's line is printed while the program
# still runs (the fixture is held on a fifo until the test has seen it, or
# spins in user space after its only call),
# -p streams until SIGINT and prints everything recorded up to it (-p
# takes lists, as strace: -p "A B", -p A,B), a call
# blocking longer than the reorder window keeps its decoded arguments, the
# live text equals `sonde print --strace` of the same run's --trace-file,
# -c/-C, a failing output, and the --live-buffer gap marker.
. "$(dirname "$0")/lib.sh"
need_root
F=$FIX/live_steps

# wait_for FILE REGEX [SECONDS]: polls until a line of FILE matches.
wait_for() {
	local f=$1 re=$2 t=${3:-10} i
	for ((i = 0; i < t * 100; i++)); do
		grep -qE -- "$re" "$f" 2>/dev/null && return 0
		sleep 0.01
	done
	return 1
}
# running PID: alive and not a zombie.
running() {
	[ -r "/proc/$1/stat" ] && ! awk '{ exit $3 == "Z" ? 0 : 1 }' "/proc/$1/stat"
}
# reap PID [SECONDS]: waits for a background job, killing it after a while
# (polling: a watchdog subshell would run lib.sh's EXIT trap when killed);
# its status lands in $rc.
reap() {
	local p=$1 t=${2:-20} i
	for ((i = 0; i < t * 100 && $(kill -0 "$p" 2>/dev/null && echo 1 || echo 0); i++)); do
		sleep 0.01
	done
	kill -9 "$p" 2>/dev/null
	wait "$p"
	rc=$?
}

# --- 1. a command: lines while it runs ----------------------------------
mkfifo "$TMP/fifo"
$SONDE strace -f -ttt -T -o "$TMP/l.out" "$F" "$TMP/fifo" 2 > "$TMP/l.stdout" 2> "$TMP/l.err" &
spid=$!
if wait_for "$TMP/l.out" 'live-step-1'; then
	seen=$(date +%s.%N)
	ok "strace_live: a call's line is printed while the program runs"
	read -r fpid ts _ < <(grep 'live-step-1' "$TMP/l.out")
	check "strace_live: the program was still running (blocked on the fifo)" running "$fpid"
	lat=$(echo "$seen - $ts" | bc)
	echo "# strace_live: call to line latency ${lat}s (reorder window 0.1 s, poll 10 ms)"
	check "strace_live: the line came within 1 s of the call" [ "$(echo "$lat < 1" | bc)" = 1 ]
else
	notok "strace_live: a call's line is printed while the program runs"
fi
check "strace_live: the program's own output went on (step 0)" grep -qx "step 0" "$TMP/l.stdout"
# Let the fixture's open of the fifo block well past the reorder window.
sleep 0.3
exec 3> "$TMP/fifo"
echo -n x >&3
check "strace_live: step 2's line while the program waits again" wait_for "$TMP/l.out" 'live-step-2'
check "strace_live: ... and the program is still running" running "${fpid:-0}"
# The open blocked ~0.4 s: its path was captured at entry and must still
# be decoded when the call's record comes long after.
check "strace_live: a call blocking past the window keeps its decoded path" \
	grep -qE "openat\(AT_FDCWD, \"$TMP/fifo\", O_RDONLY\) += 3 <0\.[1-9]" "$TMP/l.out"
echo -n y >&3
exec 3>&-
reap $spid
check "strace_live: sonde strace exits with the command's status" [ "$rc" = 0 ]
check "strace_live: the exit line" grep -q '+++ exited with 0 +++' "$TMP/l.out"

# --- 1b. a call followed by no other: its line comes while the program runs
# The recorder batches syscall records in the kernel; a batch that does not
# fill is flushed by the consumer on every pass (an IPI running flush_batch
# on the CPU), not when the program next makes a call or exits.
$SONDE strace -o "$TMP/s.out" "$F" --spin 4 2> "$TMP/s.err" &
spid=$!
t0=$(date +%s.%N)
if wait_for "$TMP/s.out" 'live-step-1' 3; then
	lat=$(echo "$(date +%s.%N) - $t0" | bc)
	echo "# strace_live: spinning program's only call printed after ${lat}s (start-up included)"
	check "strace_live: the call's line while the program spins without calls" \
		[ "$(echo "$lat < 3" | bc)" = 1 ]
else
	notok "strace_live: the call's line while the program spins without calls"
fi
reap $spid
check "strace_live: the spinning program ends normally" [ "$rc" = 0 ] &&
	grep -q '+++ exited with 0 +++' "$TMP/s.out"

# --- 2. -p: streaming, SIGINT prints everything, the process lives on ----
mkfifo "$TMP/fifo2"
"$F" "$TMP/fifo2" 3 > "$TMP/p.stdout" &
fpid=$!
$SONDE strace -o "$TMP/p.out" -p $fpid 2> "$TMP/p.err" &
spid=$!
check "strace_live: -p says it attached" wait_for "$TMP/p.err" "Process $fpid attached"
exec 4> "$TMP/fifo2"
echo -n x >&4
check "strace_live: -p streams the calls" wait_for "$TMP/p.out" 'live-step-2'
echo -n y >&4
# SIGINT as soon as the fixture printed step 2: its write is younger than
# the reorder window, so only the final drain can have printed it.
wait_for "$TMP/p.stdout" '^step 2$'
kill -INT $spid
reap $spid
check "strace_live: -p stops on SIGINT with status 0" [ "$rc" = 0 ]
check "strace_live: SIGINT prints what was recorded up to it" \
	grep -qE '^write\(1, "step 2\\n", 7\) += 7$' "$TMP/p.out"
check "strace_live: -p says it detached" grep -q "Process $fpid detached" "$TMP/p.err"
# The read waiting for the next byte ends as strace ends it at detach.
check "strace_live: the blocked read ends with <detached ...>" \
	grep -qE '^read\([0-9]+,  <detached \.\.\.>$' "$TMP/p.out"
check "strace_live: the process runs on after SIGINT" running $fpid
# -p ends by itself when the process exits.
$SONDE strace -o "$TMP/p2.out" -p $fpid 2> "$TMP/p2.err" &
spid=$!
wait_for "$TMP/p2.err" "Process $fpid attached"
echo -n z >&4
exec 4>&-
reap $spid
check "strace_live: -p ends with the process" [ "$rc" = 0 ]
check "strace_live: -p shows the end of the process" grep -q '+++ exited with 0 +++' "$TMP/p2.out"
reap $fpid
check "strace_live: the traced process exited normally" [ "$rc" = 0 ]

# --- 2a. -p lists, as strace takes them: -p "$(pidof X)", -p A,B -------
sleep 30 &
q1=$!
sleep 30 &
q2=$!
for list in "$q1 $q2" "$q1,$q2" "$q1, $q2,$q1"; do
	$SONDE strace -o /dev/null -p "$list" 2> "$TMP/pl.err" &
	spid=$!
	wait_for "$TMP/pl.err" "Process $q2 attached" > /dev/null
	kill -INT $spid
	reap $spid
	check_all "strace_live: -p '$list' attaches to both processes, each once" \
		[ "$rc" = 0 ] '&&' [ "$(grep -c "Process $q1 attached" "$TMP/pl.err")" = 1 ] '&&' \
		[ "$(grep -c "Process $q2 attached" "$TMP/pl.err")" = 1 ]
done
$SONDE strace -p "$q1 x" true > /dev/null 2> "$TMP/pl.err"
check_all "strace_live: -p 'PID x' is refused with the reason (status 2)" \
	[ $? = 2 ] '&&' grep -q 'expected process ids' "$TMP/pl.err"
kill $q1 $q2
wait $q1 $q2 2> /dev/null

# --- 2b. Ctrl-C on a terminal: SIGINT to the whole process group ---------
# (python resets SIGINT, which a non-interactive shell ignores in jobs)
setsid python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' $SONDE strace -o "$TMP/i.out" sleep 30 &
spid=$!
# sleep's start-up calls are printed while it sleeps, the sleep is not
# (a call's line is printed when it returns).
wait_for "$TMP/i.out" '^close\('
sleep 0.3
check "strace_live: a blocked call is not printed before it returns" \
	[ "$(grep -c 'nanosleep' "$TMP/i.out")" = 0 ]
kill -INT -- -"$spid"
reap $spid 10
check "strace_live: Ctrl-C: sonde exits with the command's status (130)" [ "$rc" = 130 ]
check "strace_live: Ctrl-C: the interrupted call and the exit are printed" \
	grep -qE 'nanosleep\(.*= \? ERESTART_RESTARTBLOCK' "$TMP/i.out" &&
	grep -q '+++ killed by SIGINT +++' "$TMP/i.out"

# --- 3. same text as the offline path -------------------------------------
cmd=(sh -c "cat /etc/hostname | wc -l; ls / > /dev/null; $F /nonexistent 1")
(cd "$TMP" && $SONDE strace -f -o "$TMP/on.out" --trace-file "$TMP/on.trace" "${cmd[@]}" > /dev/null)
$SONDE print --strace "$TMP/on.trace" > "$TMP/off0.out"
# A call that blocked past the window is printed whole when it returns,
# offline split where other lines came in between: the same lines with
# the halves joined. Within each thread the order is the same.
strace_joined "$TMP/on.out" > "$TMP/on.joined" && mv "$TMP/on.joined" "$TMP/on.out"
strace_joined "$TMP/off0.out" > "$TMP/off.out"
check "strace_live: live and offline print the same lines" \
	cmp -s <(sort "$TMP/on.out") <(sort "$TMP/off.out")
same_order=0
for p in $(cut -d' ' -f1 "$TMP/off.out" | sort -u); do
	cmp -s <(grep "^$p " "$TMP/on.out") <(grep "^$p " "$TMP/off.out") || same_order=1
done
check "strace_live: each process's lines in the same order" [ "$same_order" = 0 ]
check "strace_live: the comparison saw several processes" \
	[ "$(cut -d' ' -f1 "$TMP/off.out" | sort -u | wc -l)" -ge 4 ]

# --- 4. -c and -C ---------------------------------------------------------
$SONDE strace -C -o "$TMP/c.out" true
# Calls that returned: exit_group's "= ?" is not counted, as in strace.
calls=$(grep -cE '^[a-z_0-9]+\(.*\) += [^?]' "$TMP/c.out")
total=$(awk '$NF == "total" { print $4 }' "$TMP/c.out")
check_all "strace_live: -C prints the calls, then a table counting them all" \
	[ "$calls" -gt 10 ] '&&' \
	[ "$calls" = "$total" ]
$SONDE strace -c -o "$TMP/c2.out" true
check_all "strace_live: -c prints only the table" \
	[ "$(grep -cE '^[a-z_0-9]+\(' "$TMP/c2.out")" = 0 ] '&&' \
	grep -q ' total$' "$TMP/c2.out"

# --- 5. a failing output stops tracing, reported --------------------------
timeout 30 $SONDE strace -o /dev/full "$F" /nonexistent 1 > /dev/null 2> "$TMP/full.err"
rc=$?
check "strace_live: a full output device fails with status 1" [ "$rc" = 1 ]
check "strace_live: ... naming the problem" grep -q "No space left on device" "$TMP/full.err"

# --- 6. an output too slow: the gap is marked and counted ------------------
mkfifo "$TMP/slow"
sh -c 'sleep 2; exec cat' < "$TMP/slow" > "$TMP/slow.out" &
rpid=$!
$SONDE strace --live-buffer 64K -o "$TMP/slow" dd if=/dev/zero of=/dev/null bs=1 count=100000 \
	2> "$TMP/slow.err"
reap $rpid
hidden=$(sed -n 's/^sonde strace: \([0-9]*\) events not shown.*/\1/p' "$TMP/slow.err")
marked=$(sed -n 's/^+++ sonde: \([0-9]*\) events not shown.*/\1/p' "$TMP/slow.out" |
	awk '{ s += $1 } END { print s + 0 }')
shown=$(grep -cE '^(read|write)\(' "$TMP/slow.out")
echo "# strace_live: slow output: ${shown} read/write lines shown, ${hidden:-0} events not shown"
check "strace_live: a slow output loses lines, said on stderr" [ "${hidden:-0}" -gt 0 ]
check "strace_live: the gap markers add up to the count" [ "$marked" = "${hidden:-0}" ]
check_all "strace_live: lines before and after a gap are shown" \
	[ "$shown" -gt 100 ] '&&' \
	tail -n 3 "$TMP/slow.out" | grep -q 'exited with 0'
exit 0
