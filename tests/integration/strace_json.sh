#!/usr/bin/env bash
# sonde strace --json: NDJSON streamed live. Every line parses, the objects
# are exactly those `sonde print --json` makes of the same run's
# --trace-file (also with -e trace=, -Z and --payload), a line comes while
# the program still runs, -p streams until SIGINT, without -f only the
# first thread is shown, -c/-C --json give a report whose counts are the
# calls printed, a slow output marks its gaps with lost objects, and bad
# option pairs or a failing output are errors.
. "$(dirname "$0")/lib.sh"
need_root
F=$FIX/live_steps

wait_for() {
	local f=$1 re=$2 t=${3:-10} i
	for ((i = 0; i < t * 100; i++)); do
		grep -qE -- "$re" "$f" 2>/dev/null && return 0
		sleep 0.01
	done
	return 1
}
reap() {
	local p=$1 t=${2:-20} i
	for ((i = 0; i < t * 100 && $(kill -0 "$p" 2>/dev/null && echo 1 || echo 0); i++)); do
		sleep 0.01
	done
	kill -9 "$p" 2>/dev/null
	wait "$p"
	rc=$?
}
# ndjson FILE: every line is one JSON object.
ndjson() {
	python3 -c 'import json, sys
n = 0
for line in open(sys.argv[1]):
    o = json.loads(line)
    assert isinstance(o, dict), line
    n += 1
sys.exit(0 if n else 1)' "$1"
}
# same_objects A B: the same multiset of objects (compared parsed, so key
# order or spacing could not hide a difference, nor make one).
same_objects() {
	python3 -c 'import json, sys, collections
def objs(p):
    return collections.Counter(json.dumps(json.loads(l), sort_keys=True) for l in open(p))
a, b = objs(sys.argv[1]), objs(sys.argv[2])
if a != b:
    print("# only live:", list((a - b).elements())[:3])
    print("# only offline:", list((b - a).elements())[:3])
sys.exit(a != b)' "$1" "$2"
}
# pyq FILE EXPR: evaluates EXPR with L = the parsed lines; true -> status 0.
pyq() {
	python3 -c 'import json, sys
L = [json.loads(l) for l in open(sys.argv[1])]
sys.exit(0 if eval("(" + sys.argv[2] + ")") else 1)' "$1" "$2"
}

# --- 1. the objects of sonde print --json ---------------------------------
cmd=(sh -c "cat /etc/hostname | wc -l; ls / > /dev/null; $F /nonexistent 1")
(cd "$TMP" && $SONDE strace -f --json -o "$TMP/on.json" --trace-file "$TMP/on.trace" \
	"${cmd[@]}" > /dev/null)
rc=$?
check "strace_json: exits with the command's status (2: no fifo)" [ "$rc" = 2 ]
check "strace_json: every line is a JSON object" ndjson "$TMP/on.json"
$SONDE print --json "$TMP/on.trace" > "$TMP/off.json"
check "strace_json: the objects equal sonde print --json of the trace file" \
	same_objects "$TMP/on.json" "$TMP/off.json"
check "strace_json: ... of several processes, with fork, exec and exit" \
	pyq "$TMP/on.json" 'len({o["pid"] for o in L}) >= 4 and
		{"fork", "exec", "exit", "syscall"} <= {o["type"] for o in L}'
check "strace_json: decoded arguments by name" \
	pyq "$TMP/on.json" 'any(o.get("name") == "openat" and
		o.get("argv", {}).get("pathname") == "/nonexistent/live-step-1" and
		o.get("errno") == "ENOENT" for o in L)'
# Per thread, the stream is in time order.
check "strace_json: each thread's objects in time order" \
	pyq "$TMP/on.json" 'all([o["ts"] for o in L if o["tid"] == t] ==
		sorted(o["ts"] for o in L if o["tid"] == t) for t in {o["tid"] for o in L})'

# --- 2. -e trace=, -Z and --payload are print's filters and payloads ------
(cd "$TMP" && $SONDE strace -f --json -e trace=%file -Z --payload=hex -o "$TMP/f.json" \
	--trace-file "$TMP/f.trace" sh -c 'cat /etc/hostname /nonexistent; echo x > /dev/null' \
	> /dev/null 2>&1)
$SONDE print --json -e trace=%file -Z --payload=hex "$TMP/f.trace" > "$TMP/f.off"
check "strace_json: -e trace=%file -Z --payload=hex: the objects of print with them" \
	same_objects "$TMP/f.json" "$TMP/f.off"
check "strace_json: ... only failed file calls" \
	pyq "$TMP/f.json" 'all(o["errno_nr"] > 0 and o["name"] in
		("open", "openat", "stat", "access", "execve", "newfstatat", "readlink",
		 "statx", "faccessat", "faccessat2", "lstat")
		for o in L if o["type"] == "syscall") and
		sum(o["type"] == "syscall" for o in L) >= 2'
check "strace_json: ... each with its path captured, hex encoded" \
	pyq "$TMP/f.json" 'any(p["encoding"] == "hex" and
		bytes.fromhex(p["data"]) == b"/nonexistent" for o in L
		for p in o.get("payload", []))'
$SONDE strace --json -e trace=read --payload=base64 -o "$TMP/b.json" cat /etc/hostname \
	> /dev/null
check "strace_json: --payload=base64: read's bytes are the file's" \
	pyq "$TMP/b.json" "any(__import__('base64').b64decode(p['data']) ==
		open('/etc/hostname', 'rb').read() for o in L for p in o.get('payload', []))"

# --- 3. live: an object while the program runs ----------------------------
mkfifo "$TMP/fifo"
$SONDE strace --json -o "$TMP/l.json" "$F" "$TMP/fifo" 1 > /dev/null 2>&1 &
spid=$!
check "strace_json: an object is written while the program runs" \
	wait_for "$TMP/l.json" '"pathname":"/nonexistent/live-step-1"'
exec 3> "$TMP/fifo"
echo -n x >&3
exec 3>&-
reap $spid
check "strace_json: live stream ends with the exit object" \
	pyq "$TMP/l.json" 'L[-1]["type"] == "exit" and L[-1]["code"] == 0'

# --- 4. -p: streams until SIGINT ------------------------------------------
mkfifo "$TMP/fifo2"
"$F" "$TMP/fifo2" 3 > /dev/null &
fpid=$!
$SONDE strace --json -o "$TMP/p.json" -p $fpid 2> "$TMP/p.err" &
spid=$!
wait_for "$TMP/p.err" "Process $fpid attached"
exec 4> "$TMP/fifo2"
echo -n x >&4
check "strace_json: -p streams objects" wait_for "$TMP/p.json" 'live-step-2'
kill -INT $spid
reap $spid
check "strace_json: -p stops on SIGINT with status 0" [ "$rc" = 0 ]
check "strace_json: -p: every line parses, all of the process" \
	pyq "$TMP/p.json" "all(o['pid'] == $fpid for o in L if o['type'] == 'syscall')"
echo -n yz >&4
exec 4>&-
reap $fpid

# --- 5. without -f, only the first thread --------------------------------
$SONDE strace --json -o "$TMP/nf.json" sh -c 'cat /etc/hostname | wc -l' > /dev/null
check "strace_json: without -f only the command's own calls" \
	pyq "$TMP/nf.json" 'len({o["tid"] for o in L if o["type"] == "syscall"}) == 1'

# --- 6. -c --json, -C --json ------------------------------------------------
$SONDE strace -C --json -o "$TMP/c.json" sh -c 'ls / > /dev/null; cat /nonexistent' 2> /dev/null
check "strace_json: -C --json: every line parses" ndjson "$TMP/c.json"
check "strace_json: -C --json: the report's calls, errors and per-syscall counts are the objects'" \
	pyq "$TMP/c.json" 'L[-1]["total"]["calls"] == sum(o.get("type") == "syscall" for o in L) and
		L[-1]["total"]["errors"] == sum("errno_nr" in o for o in L[:-1]) and
		{s["name"]: s["calls"] for s in L[-1]["total"]["syscalls"]} ==
		__import__("collections").Counter(o["name"] for o in L[:-1]
			if o["type"] == "syscall") and L[-1]["total"]["errors"] >= 1'
$SONDE strace -c --json -e trace=openat,read -o "$TMP/c2.json" cat /etc/hostname > /dev/null
check "strace_json: -c --json: one document, only the traced calls" \
	pyq "$TMP/c2.json" 'len(L) == 1 and
		{s["name"] for s in L[0]["total"]["syscalls"]} == {"openat", "read"}'
$SONDE strace -c -o "$TMP/c3.txt" cat /etc/hostname > /dev/null
check "strace_json: -c without --json is still strace's table" grep -q ' total$' "$TMP/c3.txt"

# --- 7. an output too slow: the gaps are lost objects of kind live -------
mkfifo "$TMP/slow"
sh -c 'sleep 2; exec cat' < "$TMP/slow" > "$TMP/slow.json" &
rpid=$!
$SONDE strace --json --live-buffer 64K -o "$TMP/slow" dd if=/dev/zero of=/dev/null bs=1 \
	count=100000 2> "$TMP/slow.err"
reap $rpid
hidden=$(sed -n 's/^sonde strace: \([0-9]*\) events not shown.*/\1/p' "$TMP/slow.err")
check "strace_json: a slow output: lost objects (kind live) add up to the count on stderr" \
	pyq "$TMP/slow.json" "${hidden:-0} > 0 and sum(o['count'] for o in L if
		o['type'] == 'lost' and o['kind'] == 'live') == ${hidden:-0} and
		sum(o['type'] == 'syscall' for o in L) > 100"

# --- 8. errors ------------------------------------------------------------
$SONDE strace --payload=hex true 2> "$TMP/e1.err"
rc=$?
check_all "strace_json: --payload without --json is an error (status 2)" \
	[ "$rc" = 2 ] '&&' \
	grep -q -- '--payload needs --json' "$TMP/e1.err"
$SONDE strace --json --payload=oct true 2> "$TMP/e2.err"
rc=$?
check_all "strace_json: --payload=oct is an error (status 2)" \
	[ "$rc" = 2 ] '&&' \
	grep -q 'hex or base64' "$TMP/e2.err"
timeout 30 $SONDE strace --json -o /dev/full "$F" /nonexistent 1 > /dev/null 2> "$TMP/full.err"
rc=$?
check_all "strace_json: a full output device fails with status 1, named" \
	[ "$rc" = 1 ] '&&' \
	grep -q "No space left on device" "$TMP/full.err"
exit 0
