#!/usr/bin/env bash
# Signal records (bpf/signal.h): deliveries and sends of the fixture
# rec_signals, as `sonde print` shows them (strace's siginfo form), as
# JSON, and through `sonde strace`, whose output must equal Debian's
# strace -f for the same program (tests/integration/strace_norm.py).
. "$(dirname "$0")/lib.sh"
need_root

"$SONDE" record -q -o "$TMP/s.trace" -- "$FIX/rec_signals" > "$TMP/s.out"
check "signals: fixture exit status 0 (child killed by SIGTERM)" [ $? -eq 0 ]
read -r _ pid _ c1 _ c2 < "$TMP/s.out"
"$SONDE" print "$TMP/s.trace" > "$TMP/s.txt"
has() { grep -qF -- "$2" "$TMP/s.txt" || { echo "# missing: $2" >&2; return 1; }; }
check "signals: kill() delivery" has kill \
	"[pid $(printf %5d "$pid")] --- SIGUSR1 {si_signo=SIGUSR1, si_code=SI_USER, si_pid=$pid, si_uid=0} ---"
check "signals: raise() delivery (SI_TKILL)" has tkill \
	"--- SIGUSR1 {si_signo=SIGUSR1, si_code=SI_TKILL, si_pid=$pid, si_uid=0} ---"
check "signals: sigqueue() value" has queue \
	"--- SIGRT_2 {si_signo=SIGRT_2, si_code=SI_QUEUE, si_pid=$pid, si_uid=0, si_int=42, si_ptr=0x2a} ---"
check "signals: fault address" has segv \
	"--- SIGSEGV {si_signo=SIGSEGV, si_code=SEGV_MAPERR, si_addr=0x10} ---"
check "signals: child exit sent, ignored by default" has chld \
	"--- sent SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=$c1, si_uid=0, si_status=3, si_utime=0, si_stime=0} by $c1/$c1 to the process: ignored ---"
check "signals: SIG_IGN'd signal sent and dropped" has ign \
	"--- sent SIGUSR2 {si_signo=SIGUSR2, si_code=SI_USER, si_pid=$pid, si_uid=0} by $pid/$pid to the process: ignored ---"
check "signals: fatal default action takes the process down" has term \
	"[pid $(printf %5d "$c2")] --- sent SIGTERM {si_signo=SIGTERM, si_code=SI_USER, si_pid=$pid, si_uid=0} by $pid/$pid to the process: delivered, process exiting ---"
check "signals: the killed child's SIGCHLD" has killed \
	"si_code=CLD_KILLED, si_pid=$c2, si_uid=0, si_status=SIGTERM"

# JSON: each delivery with its handler (the fixture's, not SIG_DFL).
"$SONDE" print --json "$TMP/s.trace" > "$TMP/s.json"
python3 - "$TMP/s.json" "$pid" > "$TMP/j.err" 2>&1 <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
pid = int(sys.argv[2])
sig = [r for r in recs if r["type"] == "signal" and r["pid"] == pid]
names = [r["signal"] for r in sig]
assert names == ["SIGUSR1", "SIGUSR1", "SIGRT_2", "SIGSEGV"], names
assert all(r["handler"] > 1 for r in sig), sig
assert sig[2]["si_int"] == 42 and sig[3]["si_addr"] == 16, sig
gen = [r for r in recs if r["type"] == "signal_generate"]
by = {(r["signal"], r["result"]) for r in gen}
assert ("SIGCHLD", "ignored") in by and ("SIGUSR2", "ignored") in by, by
term = [r for r in gen if r["signal"] == "SIGTERM"]
assert len(term) == 1 and term[0]["exiting"] and term[0]["sender_pid"] == pid, term
PY
check "signals: JSON records" [ ! -s "$TMP/j.err" ]
cat "$TMP/j.err" >&2

# Flight recorder lines.
"$SONDE" print --format=flight "$TMP/s.trace" > "$TMP/s.flight"
check "signals: flight lines" grep -q "$pid (SIGNAL) SIGSEGV code=SEGV_MAPERR" "$TMP/s.flight"

# sonde strace vs strace -f on the same program: every line, signals
# included, matches.
if command -v strace > /dev/null; then
	strace -f -o "$TMP/ref.strace" "$FIX/rec_signals" > /dev/null
	"$SONDE" strace -f -o "$TMP/s.sonde" "$FIX/rec_signals" > /dev/null
	res=$(python3 tests/integration/strace_norm.py "$TMP/ref.strace" "$TMP/s.sonde")
	read -r _ m t <<< "$(head -1 <<< "$res")"
	# Where a SIGCHLD line sits relative to the parent's calls depends on
	# when the child's exit lands (race): a signal line may move, no line
	# may be missing or differ. So per process, the other lines must be
	# the same in the same order and the signal lines the same multiset
	# (a diff of the whole sequence may call the call line the moved one).
	moved=$(python3 -c '
import collections, sys
sys.path.insert(0, "tests/integration")
import strace_norm as n
a, b = (n.normalised(f) for f in sys.argv[1:])
sig = lambda l: l.startswith("--- SIG")
bad = 0
for who in set(a) | set(b):
    sa, sb = a.get(who, []), b.get(who, [])
    calls = ([l for l in sa if not sig(l)], [l for l in sb if not sig(l)])
    sigs = [collections.Counter(l for l in s if sig(l)) for s in (sa, sb)]
    if calls[0] != calls[1] or sigs[0] != sigs[1]:
        print(who, file=sys.stderr)
        bad += 1
print(bad)' "$TMP/ref.strace" "$TMP/s.sonde")
	check "signals: sonde strace matches strace -f ($m/$t lines in place, the rest moved signal lines)" \
		[ "${t:-0}" -gt 0 -a "$moved" = 0 ]
	[ "$moved" = 0 ] || tail -n +2 <<< "$res" >&2
	check "signals: strace's signal lines all there" \
		[ "$(grep -c -- ' --- SIG' "$TMP/s.sonde")" -eq "$(grep -c -- ' --- SIG' "$TMP/ref.strace")" ]
	"$SONDE" strace -f -e signal='!SIGCHLD' -o "$TMP/nochld.sonde" "$FIX/rec_signals" > /dev/null
	check "signals: -e signal=!SIGCHLD hides them" \
		[ "$(grep -c -- '--- SIGCHLD' "$TMP/nochld.sonde")" -eq 0 ]
else
	notok "signals: Debian's strace is not installed (apt-get install strace)"
fi
