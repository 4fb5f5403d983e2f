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
