#!/usr/bin/env bash
# record -Z/--failed-only stores the payloads of the failed calls it keeps
# and none of the successful calls it drops: a successful 200 KB write
# leaves no byte in the trace, while a failed write's buffer and a failed
# open's path are still shown by print --strace.
. "$(dirname "$0")/lib.sh"
need_root

head -c 200000 /dev/urandom > "$TMP/big.bin"
$SONDE record -q -Z -o "$TMP/z.trace" -- sh -c \
	"cat '$TMP/big.bin' > /dev/null; echo FAILED-WRITE >&3; cat /nonexistent/sonde-z" \
	3< /dev/null 2> /dev/null
$SONDE print --strace "$TMP/z.trace" > "$TMP/z.out"
check "record -Z: the failed write's buffer is shown" \
	grep -Eq 'write\(1, "FAILED-WRITE\\n", 13\) += -1 EBADF' "$TMP/z.out"
check "record -Z: the failed open's path is shown" \
	grep -q 'openat(AT_FDCWD, "/nonexistent/sonde-z", O_RDONLY) = -1 ENOENT' "$TMP/z.out"
# Every payload stored belongs to a call in the trace, and they add up to
# a few paths and the failed buffer, not the file cat wrote.
$SONDE print --json --payload=hex "$TMP/z.trace" | python3 -c '
import json, sys
n = calls = 0
for l in sys.stdin:
    o = json.loads(l)
    if o["type"] == "syscall":
        calls += 1
        n += sum(p.get("captured", 0) for p in o.get("payload", []))
print(calls, n)' > "$TMP/attached"
$SONDE stat "$TMP/z.trace" | sed -n 's/^payload: .*records, \([0-9]*\) bytes captured.*/\1/p' \
	> "$TMP/stored"
read -r calls attached < "$TMP/attached"
stored=$(cat "$TMP/stored")
check "record -Z: failed calls recorded ($calls)" test "$calls" -ge 2
check "record -Z: payload bytes stored ($stored) all belong to recorded calls ($attached)" \
	test "$stored" = "$attached"
check "record -Z: no payload of the successful writes ($stored bytes stored)" \
	test "$stored" -lt 4096
