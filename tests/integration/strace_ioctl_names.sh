#!/usr/bin/env bash
# ioctl request names as Debian's strace 6.1 prints them. The fixture
# calls ioctl(-1, REQ, 0) for every number of sonde's generated table
# (src/decode/strace/ioctl_names.c) and for the numbers strace names from
# their fields (EVIOCGNAME(256)...); every call fails with EBADF. The
# request field of each line (only that: strace decodes some arguments
# even then) must be strace's, line for line, except for the documented
# differences of strace_ioctl_names.known, which must still be exactly
# those. Also with -X raw and -X verbose, in JSON, and for real programs.
. "$(dirname "$0")/lib.sh"
need_root
need_strace
F=$FIX/strace_ioctl_names
KNOWN=$PWD/tests/integration/strace_ioctl_names.known
if [ ! -x "$F" ]; then
	notok "strace_ioctl_names: $F is not built (make)"
	exit 1
fi

# The request field of each ioctl line: the second argument, up to the
# comma at depth 0 (EVIOCGBIT(EV_KEY, 96) holds one).
cat > "$TMP/req.py" <<'PY'
import re
import sys

for line in sys.stdin:
    m = re.search(r"ioctl\(-?[0-9]+(<[^>]*>)?, ", line)
    if not m:
        continue
    s, d = line[m.end():], 0
    for i, c in enumerate(s):
        if c in "([{":
            d += 1
        elif c in ")]}":
            if d == 0:
                break
            d -= 1
        elif c == "," and d == 0:
            break
    print(s[:i])
PY

# compare.py RAW STRACE SONDE KNOWN: counts and checks (see the header).
cat > "$TMP/compare.py" <<'PY'
import sys

raw, ref, out = (open(f).read().splitlines() for f in sys.argv[1:4])
known = {}
for line in open(sys.argv[4]):
    if line.startswith("#") or not line.strip():
        continue
    num, a, b, why = line.rstrip("\n").split("\t")
    known[num] = (a, b, why)
if not (len(raw) == len(ref) == len(out)):
    print("not ok - strace_ioctl_names: %d, %d, %d ioctl lines (raw, strace, sonde)"
          % (len(raw), len(ref), len(out)))
    sys.exit(0)
same = seen = 0
bad = []
for num, a, b in zip(raw, ref, out):
    if a == b:
        same += 1
    elif num in known and known[num][:2] == (a, b):
        seen += 1
    else:
        bad.append("# %s: strace '%s', sonde '%s'" % (num, a, b))
print("# %d of %d request names identical to strace 6.1, %d known differences"
      % (same, len(ref), seen))
if bad:
    print("not ok - strace_ioctl_names: %d request names differ from strace's" % len(bad))
    print("\n".join(bad[:30]))
else:
    print("ok - strace_ioctl_names: %d of %d request names as strace 6.1 prints them, "
          "the other %d as listed in strace_ioctl_names.known" % (same, len(ref), seen))
stale = sorted(set(known) - set(n for n, a, b in zip(raw, ref, out) if a != b))
if stale:
    print("not ok - strace_ioctl_names: known differences no longer seen: %s"
          % " ".join(stale))
else:
    print("ok - strace_ioctl_names: every known difference is still one")
# The differences stay few: a regression in the generated table shows.
if same < 0.98 * len(ref):
    print("not ok - strace_ioctl_names: only %d of %d identical" % (same, len(ref)))
PY

check "strace_ioctl_names: every call fails with EBADF" "$F"
for x in abbrev raw verbose; do
	opt=()
	[ $x = abbrev ] || opt=(-X $x)
	strace "${opt[@]}" -o "$TMP/ref.$x" "$F"
	$SONDE strace "${opt[@]}" -o "$TMP/out.$x" "$F"
	python3 "$TMP/req.py" < "$TMP/ref.$x" > "$TMP/ref.$x.req"
	python3 "$TMP/req.py" < "$TMP/out.$x" > "$TMP/out.$x.req"
done
n=$(wc -l < "$TMP/ref.raw.req")
check "strace_ioctl_names: the fixture made $n calls (> 2500)" [ "$n" -gt 2500 ]
python3 "$TMP/compare.py" "$TMP/ref.raw.req" "$TMP/ref.abbrev.req" \
	"$TMP/out.abbrev.req" "$KNOWN"
# -X raw: the number alone, always.
same "strace_ioctl_names: -X raw" "$TMP/ref.raw.req" "$TMP/out.raw.req"
# -X verbose: "0x5402 /* SNDCTL_TMR_START or TCSETS */", identical where
# the names are; the known differences are left out.
grep -v '^#' "$KNOWN" | cut -f1 | sed 's/.*/^& /' > "$TMP/known.nums"
grep -vf "$TMP/known.nums" "$TMP/ref.verbose.req" > "$TMP/ref.v"
grep -vf "$TMP/known.nums" "$TMP/out.verbose.req" > "$TMP/out.v"
same "strace_ioctl_names: -X verbose" "$TMP/ref.v" "$TMP/out.v"

# JSON: a named request is its name, another its number.
$SONDE strace --json -o "$TMP/j" "$F"
named=$(grep -vc '^_IOC(' "$TMP/out.abbrev.req")
check "strace_ioctl_names: --json names the $named named requests" \
	[ "$(grep -o '"cmd":"[A-Z]' "$TMP/j" | wc -l)" -eq "$named" ]
check "strace_ioctl_names: --json gives an unnamed request's number" \
	grep -q "\"cmd\":$(printf %u 0xfe01)," "$TMP/j"

# Real programs: every ioctl of each as strace names it.
PY=$(python3 -c 'import sys; print(sys.executable)')
real() { # name python-code
	strace -e trace=ioctl -o "$TMP/r1" "$PY" -S -c "$2" > /dev/null
	$SONDE strace -e trace=ioctl -o "$TMP/r2" "$PY" -S -c "$2" > /dev/null
	python3 "$TMP/req.py" < "$TMP/r1" > "$TMP/r1.req"
	python3 "$TMP/req.py" < "$TMP/r2" > "$TMP/r2.req"
	if grep -qx "$1" "$TMP/r1.req"; then
		same "strace_ioctl_names: $1 in a real program" "$TMP/r1.req" "$TMP/r2.req"
	else
		notok "strace_ioctl_names: strace shows no $1"
	fi
}
real SIOCGIFINDEX 'import socket; socket.if_nametoindex("lo")'
if [ -c /dev/kvm ] && [ -r /dev/kvm ]; then
	real KVM_CREATE_VM 'import fcntl, os
fd = os.open("/dev/kvm", os.O_RDWR)
fcntl.ioctl(fd, 0xae00, 0)
os.close(fcntl.ioctl(fd, 0xae01, 0))'
fi
