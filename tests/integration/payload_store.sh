#!/usr/bin/env bash
# The deduplicated payload store on a real pipeline: `tar -cf - DIR | cat`
# moves every byte four times (tar reads, tar writes, cat reads, cat
# writes). The bytes tar read come back from the trace hash-matching the
# files, and the trace stores them about once: sonde record's summary and
# sonde stat report the dedup ratio, and the bytes stored are well below
# the bytes captured.
. "$(dirname "$0")/lib.sh"
need_root

D=$TMP/d
mkdir -p "$D/sub"
head -c 1500000 /dev/urandom > "$D/big.bin"
head -c 300000 /dev/urandom | od -An -tx1 > "$D/text.txt"
for i in $(seq 1 40); do head -c $((i * 997)) /usr/include/stdio.h > "$D/sub/f$i.h"; done
: > "$D/empty"

# (a) What tar read, rebuilt from the strace-format hexdumps of each read
# (-y names the file), hash-matches every file.
$SONDE strace -f -y --trace-file "$TMP/a.trace" -e trace=read -e read=all -o "$TMP/a.out" \
	sh -c "cd '$TMP' && tar -cf - d | cat > /dev/null"
check "payload_store: sonde strace of tar | cat" test -s "$TMP/a.out"
match_files() {
	python3 - "$TMP/a.out" "$D" <<'PY'
import hashlib, os, re, sys
out, root = sys.argv[1], sys.argv[2]
got, cur = {}, None
line_re = re.compile(r'^\d+\s+read\(\d+<' + re.escape(root) + r'/([^>]+)>, .*\) += (\d+)$')
# A read cat's lines interleave with is split: "PID read(3</f>,  <unfinished
# ...>", later "PID <... read resumed>..." and its hexdump.
open_re = re.compile(r'^(\d+)\s+read\(\d+<' + re.escape(root) + r'/([^>]+)>,  <unfinished \.\.\.>$')
resumed_re = re.compile(r'^(\d+)\s+<\.\.\. read resumed>.*\) += (\d+)$')
pending = {}
for l in open(out, errors="replace"):
    if l.startswith(" | "):
        if cur is not None:
            got[cur] += bytes.fromhex(l[10:59].replace("  ", " "))
        continue
    l = l.rstrip("\n")
    m, o, r = line_re.match(l), open_re.match(l), resumed_re.match(l)
    if o:
        pending[o.group(1)] = o.group(2)
    cur = m.group(1) if m else pending.pop(r.group(1), None) if r else None
    if cur is not None:
        got.setdefault(cur, bytearray())
bad = 0
for dp, _, names in os.walk(root):
    for n in names:
        rel = os.path.relpath(os.path.join(dp, n), root)
        want = open(os.path.join(root, rel), "rb").read()
        if want and hashlib.sha256(got.get(rel, b"")).digest() != hashlib.sha256(want).digest():
            print("# mismatch:", rel, len(got.get(rel, b"")), "of", len(want), file=sys.stderr)
            bad += 1
sys.exit(1 if bad or len(got) < 40 else 0)
PY
}
check "payload_store: the bytes tar read hash-match every file" match_files

# (b) sonde record reports the ratio; bytes stored are well below captured.
$SONDE record --json -o "$TMP/b.trace" -- sh -c "cd '$TMP' && tar -cf - d | cat > /dev/null" \
	2> "$TMP/b.json"
field() { python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readlines()[-1])[sys.argv[2]])' "$TMP/b.json" "$1"; }
captured=$(field payload_bytes)
stored=$(field payload_stored)
echo "# record: $captured payload bytes captured, $stored stored, dedup $(field payload_dedup)x," \
	"$(field payload_file_bytes) on disk, $(field payload_shed) shed, $(field lost) lost"
check "payload_store: nothing lost" [ "$(field lost)" = 0 ]
check "payload_store: nothing shed" [ "$(field payload_shed)" = 0 ]
# Every copy was captured: tar read the files' bytes, and the archive went
# through three more calls (tar write, cat read, cat write).
files=$(cat "$D"/*.* "$D"/sub/* | wc -c)
archive=$(cd "$TMP" && tar -cf - d | wc -c)
check "payload_store: every copy captured ($files + 3 x $archive bytes)" \
	[ "$captured" -ge $((files + 3 * archive)) ]
# Four copies stored about once: the archive's bytes once, plus what cannot
# match it (tar's file reads are chunked apart from the archive stream, so
# the chunks around each file's start and end differ; paths, structs).
# With random file contents the ratio sits near 3 (2.998 seen), so the
# check is on the archive's size, not on an exact third.
check "payload_store: stored once (stored $stored < 1.5 x archive $archive)" \
	[ $((stored * 2)) -lt $((archive * 3)) ]
$SONDE record -o "$TMP/c.trace" -- sh -c "cd '$TMP' && tar -cf - d | cat > /dev/null" \
	2> "$TMP/c.txt"
check "payload_store: the text summary gives the dedup ratio" \
	grep -Eq '^sonde record: +payloads: [0-9]+ bytes captured, [0-9]+ stored in [0-9]+ blobs \(dedup [0-9.]+x\)' \
	"$TMP/c.txt"

# sonde stat reads the same figures back from the file.
$SONDE stat --json "$TMP/b.trace" > "$TMP/b.stat"
stat_ok() {
	python3 - "$TMP/b.stat" "$captured" "$stored" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["payload"]
sys.exit(0 if p["bytes"] == int(sys.argv[2]) and p["stored"] == int(sys.argv[3])
         and p["dedup"] > 2.5 and p["missing"] == 0 else 1)
PY
}
check "payload_store: sonde stat --json agrees (bytes, stored, dedup > 2.5)" stat_ok
check "payload_store: sonde stat prints the payload line" \
	sh -c "$SONDE stat '$TMP/b.trace' | grep -q '^payload: .* dedup [0-9.]*x'"

# -s 0: metadata only, no payload at all.
$SONDE record --json -s 0 -o "$TMP/z.trace" -- sh -c "cd '$TMP' && tar -cf - d | cat > /dev/null" \
	2> "$TMP/b.json"
check "payload_store: -s 0 records no payload" [ "$(field payload_bytes)" = 0 ]
check "payload_store: -s rejects nonsense" sh -c "! $SONDE record -s 3G -- true 2>/dev/null"
