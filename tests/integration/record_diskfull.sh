#!/usr/bin/env bash
# A disk that fills while recording (a 1 MB tmpfs with ~120 KB free):
# sonde record says so as soon as a chunk cannot be written (once, with
# the fix), records on to the end of the command counting every event the
# file could not take as lost, and exits 1. The summary's events are what
# the file holds (print reads as many syscalls and execs), its lost_writer
# the rest; the trace stays readable up to its last complete chunk.
. "$(dirname "$0")/lib.sh"
need_root

M=$TMP/small
mkdir -p "$M"
mount -t tmpfs -o size=1m tmpfs "$M" || { notok "record_diskfull: mount tmpfs"; exit 1; }
trap 'umount "$M"; rm -rf "$TMP"' EXIT
head -c 900000 /dev/zero > "$M/fill"

# Four rounds a second apart: the first chunks (flushed every second) fit,
# the later ones do not.
$SONDE record --json -o "$M/x.trace" -- sh -c \
	'for r in 1 2 3 4; do for i in $(seq 30); do cat /etc/services >/dev/null; done; sleep 1.1; done' \
	2> "$TMP/err"
rc=$?
sed 's/^/# /' "$TMP/err"
check "record_diskfull: exit status 1 ($rc)" test "$rc" = 1
check "record_diskfull: said at once, with the fix" \
	grep -q "^sonde record: writing $M/x.trace: No space left on device (free space on $M, or record elsewhere with -o); recording goes on" "$TMP/err"
check "record_diskfull: said once" test "$(grep -c 'recording goes on' "$TMP/err")" = 1
check "record_diskfull: final error counts the lost events" \
	grep -Eq "^sonde record: writing $M/x.trace: No space left on device .*: [1-9][0-9]* events lost; the trace is readable up to its last complete chunk$" "$TMP/err"

grep '^{' "$TMP/err" > "$TMP/summary.json"
$SONDE print --json "$M/x.trace" > "$TMP/print.json" 2> "$TMP/print.err"
prc=$?
check "record_diskfull: print reads the trace (status $prc)" test "$prc" = 0
check "record_diskfull: print says it is truncated" grep -q 'is truncated' "$TMP/print.err"
python3 - "$TMP/summary.json" "$TMP/print.json" > "$TMP/cmp" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
n = {}
for l in open(sys.argv[2]):
    t = json.loads(l)["type"]
    n[t] = n.get(t, 0) + 1
print("summary events=%d syscalls=%d execs=%d lost=%d lost_writer=%d lost_ring=%d; "
      "file syscalls=%d execs=%d" % (s["events"], s["syscalls"], s["execs"], s["lost"],
      s["lost_writer"], s["lost_ring"], n.get("syscall", 0), n.get("exec", 0)))
ok = (s["lost_writer"] > 0 and s["lost"] == s["lost_writer"] + s["lost_ring"]
      and s["syscalls"] > 0 and s["syscalls"] == n.get("syscall", 0)
      and s["execs"] == n.get("exec", 0))
sys.exit(0 if ok else 1)
PY
pyrc=$?
check "record_diskfull: summary = what the file holds, the rest lost: $(cat "$TMP/cmp")" \
	test "$pyrc" = 0

# Payload totals: the summary's are the file's (bulky payloads of a chunk
# that could not be written are not counted: they are counted when their
# blobs are written, inline ones are taken back with their chunk).
$SONDE stat --json "$M/x.trace" > "$TMP/stat.json" 2>/dev/null
python3 - "$TMP/summary.json" "$TMP/stat.json" > "$TMP/pcmp" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
p = json.load(open(sys.argv[2]))["payload"]
print("summary payload_bytes=%d stored=%d; file bytes=%d stored=%d" %
      (s["payload_bytes"], s["payload_stored"], p["bytes"], p["stored"]))
sys.exit(0 if s["payload_bytes"] > 0 and s["payload_bytes"] == p["bytes"]
         and s["payload_stored"] == p["stored"] else 1)
PY
pyrc=$?
check "record_diskfull: payload totals = the file's: $(cat "$TMP/pcmp")" test "$pyrc" = 0
