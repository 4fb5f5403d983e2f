#!/usr/bin/env bash
# Payload capture fidelity: the bytes sonde strace captured for read and
# write calls (dumped in full with -e read=/-e write=) hash-match the file
# contents, up to 1 MiB per call; unreadable memory prints as an address;
# a snaplen below the data cuts it visibly.
. "$(dirname "$0")/lib.sh"
need_root

# Rebuilds the bytes of the strace-format hexdumps that follow the calls
# whose line matches $1 (the dynamic loader's own reads are left out).
undump() {
	python3 -c '
import re, sys
out, on = bytearray(), False
for l in sys.stdin:
    if not l.startswith(" | "):
        on = re.search(sys.argv[1], l) is not None
    elif on:
        out += bytes.fromhex(l[10:59].replace("  ", " "))
sys.stdout.buffer.write(out)' "$1"
}

head -c 300000 /dev/urandom > "$TMP/rand.bin"
$SONDE strace --snaplen full -e trace=read -e read=3 -o "$TMP/r.out" cat "$TMP/rand.bin" >/dev/null
want=$(sha256sum < "$TMP/rand.bin" | cut -d' ' -f1)
got=$(undump ", 131072\\)" < "$TMP/r.out" | sha256sum | cut -d' ' -f1)
check "strace_payload: 300 KB read in 128 KiB calls hash-matches the file" [ "$want" = "$got" ]

mkdir -p "$TMP/h"
$SONDE strace --snaplen full -e trace=write -e write=3 -o "$TMP/w.out" "$FIX/strace_fs" huge "$TMP/h"
want=$(sha256sum < "$TMP/h/huge" | cut -d' ' -f1)
got=$(undump "^write\\(3, " < "$TMP/w.out" | sha256sum | cut -d' ' -f1)
check "strace_payload: a 1 MiB write is captured whole (--snaplen full)" [ "$want" = "$got" ]
check "strace_payload: the 1 MiB write line" grep -q '^write(3, "zzzz.*"\.\.\., 1048576) = 1048576$' "$TMP/w.out"

mkdir -p "$TMP/e"
$SONDE strace -e trace=openat,read -o "$TMP/e.out" "$FIX/strace_fs" open_errors "$TMP/e"
check "strace_payload: unreadable memory prints as its address" \
	grep -q '^openat(AT_FDCWD, 0x8, O_RDONLY) *= -1 EFAULT (Bad address)$' "$TMP/e.out"
check "strace_payload: a NULL buffer of a failed read" \
	grep -q '^read(1000, NULL, 1) *= -1 EBADF (Bad file descriptor)$' "$TMP/e.out"

mkdir -p "$TMP/b"
$SONDE strace --snaplen 100 -s 200 -e trace=write -o "$TMP/b.out" "$FIX/strace_fs" binary "$TMP/b"
# The shown string decodes to exactly the 100 captured bytes, then "...".
snap_ok() {
	python3 - "$1" <<'PY'
import codecs, re, sys
l = open(sys.argv[1]).readline()
m = re.match(r'^write\(3, "(.*)"\.\.\., 300\) += 300$', l)
sys.exit(0 if m and len(codecs.escape_decode(m.group(1))[0]) == 100 else 1)
PY
}
check "strace_payload: --snaplen 100 captures 100 of 300 bytes, marked with ..." snap_ok "$TMP/b.out"

# Guarded plan items (payload.h): ptrace's data, keyctl's arguments and
# fcntl's third argument are read only for the requests and commands
# whose argument is memory; the others pass numbers (a signal, options,
# a key serial) or a buffer the call only writes.
mkdir -p "$TMP/g"
(cd "$TMP/g" && "$SONDE" record -q -o "$TMP/g/p.sonde" -- "$FIX/strace_x_ptrace" trace >/dev/null 2>&1 &&
	"$SONDE" record -q -o "$TMP/g/k.sonde" -- "$FIX/strace_x_rare" keys >/dev/null 2>&1 &&
	"$SONDE" record -q -o "$TMP/g/f.sonde" -- tar -cf /dev/null /usr/include/linux 2>/dev/null)
"$SONDE" print --json --payload=hex "$TMP/g/p.sonde" > "$TMP/g/p.json"
"$SONDE" print --json --payload=hex "$TMP/g/k.sonde" > "$TMP/g/k.json"
"$SONDE" print --json --payload=hex "$TMP/g/f.sonde" > "$TMP/g/f.json"
check "strace_payload: plan guards: memory read only for the commands that pass memory" \
	python3 - "$TMP/g/p.json" "$TMP/g/k.json" "$TMP/g/f.json" <<'PY'
import json, sys
calls = [e for f in sys.argv[1:] for e in map(json.loads, open(f))
         if e["type"] == "syscall" and e["name"] in ("ptrace", "keyctl", "fcntl")]
def pls(name, cmds):
    return [(e["args"][0 if name != "fcntl" else 1], p["phase"]) for e in calls
            if e["name"] == name and e["args"][0 if name != "fcntl" else 1] in cmds
            for p in e.get("payload", [])]
# PTRACE_CONT, SYSCALL, SEIZE, INTERRUPT, SETOPTIONS, DETACH, POKEDATA
assert not pls("ptrace", {7, 24, 0x4206, 0x4207, 0x4200, 17, 5}), pls("ptrace", {7, 24, 0x4206})
got = {(e["args"][0], p["phase"]) for e in calls if e["name"] == "ptrace" for p in e.get("payload", [])}
assert (12, "exit") in got and (12, "entry") not in got, got  # GETREGS
assert (0x4204, "entry") in got and (0x4204, "exit") in got, got  # GETREGSET
# keyctl: DESCRIBE, READ write their buffer: nothing read at entry; the
# commands without strings or payloads read nothing.
assert not [x for x in pls("keyctl", {6, 11, 17}) if x[1] == "entry"]
assert not pls("keyctl", {0, 3, 4, 5, 7, 8, 9, 13, 14, 15, 19, 21, 22})
assert pls("keyctl", {2}) and pls("keyctl", {10}) and pls("keyctl", {11})
# fcntl F_GETFD/F_SETFD/F_GETFL/F_SETFL/F_DUPFD*: no read of the number
assert not pls("fcntl", {0, 1, 2, 3, 4, 1030}), pls("fcntl", {0, 1, 2, 3, 4, 1030})
assert any(e["name"] == "fcntl" for e in calls)
assert not [p for e in calls for p in e.get("payload", []) if p["unreadable"]]
PY

# Guards on a shifted argument: quotactl's data is read by QCMD's command
# (the argument >> 8), whatever the quota type in its low byte.
(cd "$TMP/g" && "$SONDE" record -q -o "$TMP/g/q.sonde" -- "$FIX/strace_x_old" quota >/dev/null 2>&1)
"$SONDE" print --json --payload=hex "$TMP/g/q.sonde" > "$TMP/g/q.json"
check "strace_payload: plan guards: quotactl's data read only for the commands that pass it" \
	python3 - "$TMP/g/q.json" <<'PY'
import json, sys
calls = [e for e in map(json.loads, open(sys.argv[1]))
         if e["type"] == "syscall" and e["name"] in ("quotactl", "quotactl_fd")]
# QUOTAON (its path), SETQUOTA, SETINFO, XSETQLIM, XQUOTAON, XQUOTAOFF, XQUOTARM
given = {0x800002: None, 0x800008: 72, 0x800006: 24, 0x5804: 112, 0x5801: 4, 0x5802: 4, 0x5806: 4}
seen = set()
for e in calls:
    cmd = e["args"][0 if e["name"] == "quotactl" else 1] >> 8
    data = [p for p in e.get("payload", []) if p["arg"] == 3]
    if cmd in given and e["args"][3]:
        assert [p["phase"] for p in data] == ["entry"], (hex(cmd), data)
        assert given[cmd] is None or data[0]["unreadable"] or data[0]["captured"] == given[cmd], (hex(cmd), data)
        seen.add(cmd)
    else:
        # the getters fill it only when they succeed (never here: no CONFIG_QUOTA)
        assert not [p for p in data if p["phase"] == "entry" or e["ret"] < 0], (hex(cmd), data)
assert seen == set(given), sorted(map(hex, set(given) - seen))
assert any(e["name"] == "quotactl_fd" and e.get("payload") for e in calls)
PY
