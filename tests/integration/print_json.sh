#!/usr/bin/env bash
# sonde print on a recording with captured memory (sonde strace
# --trace-file): every --json line is valid JSON without duplicate keys,
# decoded syscalls carry their named arguments, --payload bytes equal the
# file the traced program read (and what it wrote), strings are lossless,
# the text and flight renderers show or consume the payload records
# without complaint, option errors.
. "$(dirname "$0")/lib.sh"
need_root

T=$TMP/t.sonde
head -c 300000 /dev/urandom > "$TMP/data.bin"
# cat reads the file and writes it to a pipe, the second cat copies it out;
# ls and python3 add directories, stats, sockets, threads.
if ! "$SONDE" strace -f --snaplen full -o "$TMP/s.txt" --trace-file "$T" \
	sh -c "cat '$TMP/data.bin' | cat > '$TMP/copy.bin'; ls -la /usr > /dev/null;
	       python3 -c 'import socket, threading; s = socket.socket(); s.close();
t = threading.Thread(target=print); t.start(); t.join()' > /dev/null" > "$TMP/rec.out" 2>&1; then
	notok "print_json: record the workload (see below)"
	cat "$TMP/rec.out"
	exit 1
fi
check "print_json: the workload copied the file" cmp -s "$TMP/data.bin" "$TMP/copy.bin"

"$SONDE" print --json --payload=base64 "$T" > "$TMP/p.json" 2> "$TMP/p.err"
check "print_json: --json --payload exits 0" test $? -eq 0
check "print_json: nothing on stderr (payload records are consumed)" test ! -s "$TMP/p.err"
check "print_json: every line is valid JSON, no key twice in an object" python3 -c '
import json, sys
def no_dup(pairs):
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), keys
    return dict(pairs)
n = 0
for l in open(sys.argv[1]):
    json.loads(l, object_pairs_hook=no_dup)
    n += 1
assert n > 500, n' "$TMP/p.json"

check "print_json: decoded calls carry argv by parameter name, raw args kept" python3 - "$TMP/p.json" <<'EOF'
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
sc = [e for e in ev if e["type"] == "syscall"]
# every call of these has a decoder: argv is there, args too
for e in sc:
    if e["name"] in ("openat", "read", "write", "close", "mmap", "newfstatat", "execve"):
        assert "argv" in e and "args" in e, e
o = [e for e in sc if e["name"] == "openat" and e["ret"] >= 0][0]["argv"]
assert o["dirfd"] == "AT_FDCWD" and isinstance(o["pathname"], str), o
assert isinstance(o["flags"], list) and o["flags"][0].startswith("O_"), o
st = [e for e in sc if e["name"] == "newfstatat" and e["ret"] == 0][0]["argv"]["statbuf"]
assert st["st_mode"].startswith("S_IF") and isinstance(st["st_size"], int), st
ex = [e for e in sc if e["name"] == "execve" and e["ret"] == 0][0]["argv"]
assert ex["pathname"] == "/usr/bin/sh" and ex["argv"][:2] == ["sh", "-c"], ex
assert isinstance(ex["envp"], list), ex
ck = [e for e in sc if e["name"] == "socket" and e["argv"]["family"] == "AF_INET"]
assert ck and ck[0]["argv"]["type"][0] == "SOCK_STREAM", ck
assert any(e["name"] == "getdents64" and e["ret"] > 0 and
           isinstance(e["argv"]["dirent"], list) for e in sc)
err = [e for e in sc if e.get("errno") == "ENOENT"][0]
assert err["errno_nr"] == 2 and err["ret"] == -2, err
# syscalls without a decoder keep their raw args only
assert all("argv" not in e for e in sc if e["name"].startswith("syscall_"))
EOF

# The bytes: cat's reads of the file, from payload and from the decoded
# buffer strings (surrogateescape gives the original bytes back), and the
# second cat's writes to the copy.
check "print_json: --payload bytes of the reads equal the file" python3 - "$TMP/p.json" "$TMP/data.bin" <<'EOF'
import base64, json, sys
data = open(sys.argv[2], "rb").read()
sc = [e for e in map(json.loads, open(sys.argv[1])) if e["type"] == "syscall"]
op = [e for e in sc if e["name"] == "openat" and e["argv"]["pathname"] == sys.argv[2]][0]
mine = [e for e in sc if e["tid"] == op["tid"] and e["ts"] > op["ts"]]
end = next(e["ts"] for e in mine if e["name"] == "close" and e["argv"]["fd"] == op["ret"])
reads = [e for e in mine if e["name"] == "read" and e["argv"]["fd"] == op["ret"] and e["ts"] < end]
pl = [p for e in reads for p in e["payload"] if p["phase"] == "exit" and p["name"] == "buf"]
assert all(p["captured"] == p["returned"] and not p["unreadable"] for p in pl), pl
assert b"".join(base64.b64decode(p["data"]) for p in pl) == data
assert b"".join(e["argv"]["buf"].encode("utf-8", "surrogateescape") for e in reads) == data
EOF
"$SONDE" print --json --payload=hex "$T" > "$TMP/h.json"
check "print_json: --payload=hex: the second cat's writes equal the file" python3 - "$TMP/h.json" "$TMP/copy.bin" <<'EOF'
import json, sys
data = open(sys.argv[2], "rb").read()
sc = [e for e in map(json.loads, open(sys.argv[1])) if e["type"] == "syscall"]
op = [e for e in sc if e["name"] == "openat" and e["argv"]["pathname"] == sys.argv[2]][0]
w = [e for e in sc if e["pid"] == op["pid"] and e["name"] == "write" and e["argv"]["fd"] == 1]
assert b"".join(bytes.fromhex(p["data"]) for e in w for p in e["payload"]) == data
EOF

"$SONDE" print --json "$T" > "$TMP/np.json"
check "print_json: no payload field without --payload" bash -c "! grep -q '\"payload\"' '$TMP/np.json'"
"$SONDE" print --json -s 4 "$T" > "$TMP/s4.json"
check "print_json: -s 4 cuts decoded strings and marks them truncated" python3 -c '
import json, sys
sc = [e for e in map(json.loads, open(sys.argv[1])) if e["type"] == "syscall"]
rd = [e for e in sc if e["name"] == "read" and e["ret"] > 0]
cut = [e for e in rd if e["ret"] > 4]
assert cut and all(e["argv"]["buf"]["truncated"] is True and
                   e["argv"]["buf"]["length"] == e["ret"] and
                   len(e["argv"]["buf"]["data"].encode("utf-8", "surrogateescape")) == 4
                   for e in cut), cut[:2]
assert any(e["argv"]["buf"]["data"] == "\u007fELF" for e in cut)
assert all(isinstance(e["argv"]["buf"], str) for e in rd if e["ret"] <= 4)' "$TMP/s4.json"
check "print_json: uncut strings stay plain strings" python3 -c '
import json, sys
sc = [e for e in map(json.loads, open(sys.argv[1])) if e["type"] == "syscall"]
assert not any("\"truncated\"" in l for l in open(sys.argv[1]))
assert all(isinstance(e["argv"]["buf"], str) for e in sc if e["name"] == "read" and e["ret"] >= 0)' "$TMP/np.json"
# The snaplen cuts too: 16 bytes captured of each read.
"$SONDE" strace --snaplen 16 -o /dev/null --trace-file "$TMP/s16.sonde" \
	cat "$TMP/data.bin" > /dev/null 2>&1
"$SONDE" print --json --payload=hex "$TMP/s16.sonde" > "$TMP/s16.json"
check "print_json: a buffer the snaplen cut is marked truncated, with its length" python3 - "$TMP/s16.json" "$TMP/data.bin" <<'EOF'
import json, sys
data = open(sys.argv[2], "rb").read()
sc = [e for e in map(json.loads, open(sys.argv[1])) if e["type"] == "syscall"]
op = [e for e in sc if e["name"] == "openat" and e["argv"]["pathname"] == sys.argv[2]][0]
rd = [e for e in sc if e["name"] == "read" and e["argv"]["fd"] == op["ret"] and e["ts"] > op["ts"] and e["ret"] > 16]
assert rd
assert rd[0]["argv"]["buf"]["data"].encode("utf-8", "surrogateescape") == data[:16]
for e in rd:
    b = e["argv"]["buf"]
    assert b["truncated"] is True and b["length"] == e["ret"], b
    p = [p for p in e["payload"] if p["name"] == "buf"][0]
    assert p["captured"] == 16 and p["returned"] == e["ret"], p
EOF

# Text and flight renderers: decoded lines, payload records consumed.
"$SONDE" print "$T" > "$TMP/p.txt" 2> "$TMP/t.err"
check "print_json: text print exits 0, nothing on stderr" test $? -eq 0 -a ! -s "$TMP/t.err"
check "print_json: text shows the decoded openat of the file" \
	grep -q "^\[pid *[0-9]*\] openat(AT_FDCWD, \"$TMP/data.bin\", O_RDONLY) = 3 <[0-9.]*>$" "$TMP/p.txt"
check "print_json: text shows read buffers as strace does (-s 32)" \
	grep -q "^\[pid *[0-9]*\] read(3, \"\\\\177ELF\\\\2\\\\1\\\\1.*\"\\.\\.\\., 832) *= 832 <" "$TMP/p.txt"
"$SONDE" print --format=flight "$T" > "$TMP/f.txt" 2> "$TMP/f.err"
check "print_json: flight print exits 0, nothing on stderr" test $? -eq 0 -a ! -s "$TMP/f.err"
check "print_json: flight lines for the syscalls" grep -q " openat() <-- 3$" "$TMP/f.txt"
"$SONDE" print --strace "$T" > "$TMP/st0.txt" 2> "$TMP/st.err"
# sonde strace prints live: a call blocking past the 0.1 s reorder window
# (the shell's wait4) is printed whole when it returns, where print splits
# it into <unfinished ...> and <... resumed>: with the halves joined, the
# lines are the same and in the same order within each process, not
# across processes.
strace_joined "$TMP/s.txt" > "$TMP/s.joined"
mv "$TMP/s.joined" "$TMP/s.txt"
strace_joined "$TMP/st0.txt" > "$TMP/st.txt"
same_per_pid() {
	for p in $(cut -d' ' -f1 "$2" | sort -u); do
		cmp -s <(grep "^$p " "$1") <(grep "^$p " "$2") || return 1
	done
}
check "print_json: --strace equals what sonde strace printed" \
	cmp -s <(sort "$TMP/s.txt") <(sort "$TMP/st.txt")
check "print_json: ... in the same order within each process" same_per_pid "$TMP/s.txt" "$TMP/st.txt"

"$SONDE" print --payload=hex "$T" > /dev/null 2> "$TMP/e1"
check "print_json: --payload without --json is an error (status 2)" \
	bash -c "test $? -eq 2 && grep -q -- '--payload needs --json' '$TMP/e1'"
"$SONDE" print --json --payload=octal "$T" > /dev/null 2> "$TMP/e2"
check "print_json: --payload=octal is an error naming hex and base64" \
	bash -c "test $? -eq 2 && grep -q 'use hex or base64' '$TMP/e2'"
"$SONDE" print -s 0 "$T" > /dev/null 2> "$TMP/e3"
check "print_json: -s 0 is an error" bash -c "test $? -eq 2 && grep -q 'bad -s' '$TMP/e3'"
