#!/usr/bin/env bash
# -y as strace prints it: the fd_paths fixture (pipes, socket pairs, UNIX
# and inet sockets, eventfd, epoll, timerfd, signalfd, inotify, pidfd,
# memfd, dup'ed, forked and inherited descriptors) under Debian's
# `strace -f -y` and under `sonde strace -f -y`, compared by strace_norm.py
# (inode numbers renamed in order of appearance on each side, so the same
# inode is the same name on both); `sonde print --strace -y` of a recorded
# run the same way; `sonde strace -y -p` naming the descriptors a process
# held before it was attached, as /proc/PID/fd did; print --json's proc
# record listing the launched command's inherited descriptors; -yy's
# socket endpoints (TCP, TCPv6, UDP, UNIX, NETLINK), pidfds and device
# numbers against strace -yy.
. "$(dirname "$0")/lib.sh"
need_root
need_strace
F=$FIX/fd_paths
D=$TMP/d
mkdir -p "$D"

# Lines naming a descriptor without a path must all match; the symbolic
# links strace resolves and sonde cannot offline are docs/strace-differences.md.
fdcheck() {
	local what=$1 ref=$2 got=$3 res m t bad
	res=$(python3 tests/integration/strace_norm.py "$ref" "$got")
	read -r _ m t <<<"$(head -1 <<<"$res")"
	echo "# strace_fdpaths $what: $m of $t strace lines matched"
	bad=$(tail -n +2 <<<"$res" | grep -E '(pipe|socket):\[|anon_inode:|memfd:')
	if [ -z "$bad" ]; then
		ok "strace_fdpaths $what: every pipe, socket, anon_inode and memfd line as strace -y"
	else
		notok "strace_fdpaths $what: lines differ: $(head -c 600 <<<"$bad")"
	fi
}

# --- 1. sonde strace -f -y against strace -f -y, 0 and 1 inherited pipes --
(cd "$D" && echo go | strace -f -y -o "$TMP/a.strace" "$F" run "$D/sock" 2>/dev/null | cat >/dev/null)
(cd "$D" && echo go | "$SONDE" strace -f -y -o "$TMP/a.sonde" "$F" run "$D/sock" 2>"$TMP/a.err" | cat >/dev/null)
check "strace_fdpaths: strace's log names sockets and pipes (the reference is not empty)" \
	grep -q 'socket:\[[0-9]*\]' "$TMP/a.strace"
check "strace_fdpaths: inherited stdin is pipe:[N]" grep -qE 'read\(0<pipe:\[[0-9]+\]>, "go' "$TMP/a.sonde"
check "strace_fdpaths: inherited stdout is pipe:[N]" grep -qE 'write\(1<pipe:\[[0-9]+\]>, "start' "$TMP/a.sonde"
check "strace_fdpaths: pipe2 shows both ends decorated" \
	grep -qE 'pipe2\(\[3<pipe:\[([0-9]+)\]>, 4<pipe:\[\1\]>\], O_CLOEXEC\)' "$TMP/a.sonde"
check "strace_fdpaths: eventfd2 returns anon_inode:[eventfd]" \
	grep -qE 'eventfd2\(0, EFD_CLOEXEC\) += [0-9]+<anon_inode:\[eventfd\]>' "$TMP/a.sonde"
fdcheck "sonde strace -y" "$TMP/a.strace" "$TMP/a.sonde"

# Real programs: every line as strace -f -y prints it, links resolved
# (/lib -> /usr/lib) since sonde strace prints on the program's own host.
ym=0 yt=0
for w in "sh -c 'cat /etc/hostname | wc -l'" "ls -la /etc/hostname /usr/share/doc/strace" \
	 "tar -cf $D/t.tar -C /usr/share/doc strace" "cat /etc/hostname"; do
	rm -f "$D/t.tar"
	(cd "$D" && eval "strace -f -y -o $TMP/r.strace $w" </dev/null >/dev/null 2>&1)
	rm -f "$D/t.tar"
	(cd "$D" && eval "$SONDE strace -f -y -o $TMP/r.sonde $w" </dev/null >/dev/null 2>&1)
	res=$(python3 tests/integration/strace_norm.py "$TMP/r.strace" "$TMP/r.sonde")
	read -r _ m t <<<"$(head -1 <<<"$res")"
	ym=$((ym + m)); yt=$((yt + t))
done
echo "# strace_fdpaths real programs: $ym of $yt strace -f -y lines matched"
check "strace_fdpaths: real programs under -y match strace -f -y (>= 98%)" [ $((ym * 100)) -ge $((yt * 98)) ]

# --- 2. record, then print --strace -y -------------------------------------
(cd "$D" && echo go | "$SONDE" record -q -o "$TMP/b.trace" -- "$F" run "$D/sock" 2>/dev/null | cat >/dev/null)
"$SONDE" print --strace -y "$TMP/b.trace" > "$TMP/b.print" 2>"$TMP/b.err"
fdcheck "print --strace -y" "$TMP/a.strace" "$TMP/b.print"
# -e trace= shows fewer calls, the tables still learn from all of them.
"$SONDE" print --strace -y -e trace=read,write "$TMP/b.trace" > "$TMP/b.rw" 2>&1
check "strace_fdpaths: print --strace -y -e trace=read,write still names what filtered-out calls opened" \
	grep -qE 'write\(8<socket:\[[0-9]+\]>, "z"' "$TMP/b.rw"

# --- 3. -p: what the process held before it was attached ----------------
mkfifo "$TMP/fifo"
"$F" attach "$D/sock2" < "$TMP/fifo" > "$TMP/c.stdout" 2>/dev/null &
fpid=$!
exec 7>"$TMP/fifo"
for _ in $(seq 500); do grep -q ready "$TMP/c.stdout" 2>/dev/null && break; sleep 0.01; done
for f in /proc/$fpid/fd/*; do echo "${f##*/} $(readlink "$f")"; done > "$TMP/c.links"
"$SONDE" strace -y -p "$fpid" -o "$TMP/c.sonde" 2>"$TMP/c.err" &
spid=$!
for _ in $(seq 1000); do grep -q attached "$TMP/c.err" 2>/dev/null && break; sleep 0.01; done
echo g >&7
exec 7>&-
wait "$fpid"
for _ in $(seq 500); do kill -0 "$spid" 2>/dev/null || break; sleep 0.01; done
kill "$spid" 2>/dev/null
wait "$spid"
check "strace_fdpaths -p: each descriptor held before attaching named as /proc/PID/fd did" \
	python3 - "$TMP/c.links" "$TMP/c.sonde" <<'EOF'
import re, sys
links = dict(l.rstrip('\n').split(' ', 1) for l in open(sys.argv[1]) if ' ' in l)
seen, bad = {}, []
for line in open(sys.argv[2]):
    if 'dup' in line or 'fcntl(' in line and 'F_DUPFD' in line:
        break  # descriptors made after attaching from here on
    for fd, name, deleted in re.findall(r'\b(\d+)<([^>]*)>(\(deleted\))?', line):
        seen.setdefault(fd, name + (' (deleted)' if deleted else ''))
used = [fd for fd in links if fd in seen]
for fd in used:
    if seen[fd] != links[fd]:
        bad.append('%s: %s != %s' % (fd, seen[fd], links[fd]))
kinds = ''.join(links[fd] for fd in used)
for want in ('pipe:[', 'socket:[', 'anon_inode:[eventfd]', 'anon_inode:[eventpoll]', '/memfd:', 'fifo'):
    if want not in kinds:
        bad.append('nothing named %s' % want)
print('\n'.join(bad), file=sys.stderr)
sys.exit(1 if bad else 0)
EOF

# --- 4. print --json: the launched command's inherited descriptors --------
"$SONDE" print --json "$TMP/b.trace" > "$TMP/b.json"
check "strace_fdpaths --json: proc record of the launched command lists fd 0 as a pipe" \
	python3 - "$TMP/b.json" <<'EOF'
import json, sys
procs = [o for o in map(json.loads, open(sys.argv[1])) if o['type'] == 'proc']
p = [o for o in procs if o.get('launched')]
ok = len(p) == 1 and p[0]['fds'][0]['fd'] == 0 and p[0]['fds'][0]['path'].startswith('pipe:[') \
    and p[0]['cwd'].endswith('/d') and not p[0]['fds_more']
sys.exit(0 if ok else 1)
EOF
"$SONDE" print --json -y "$TMP/b.trace" > "$TMP/b.yjson"
check "strace_fdpaths --json -y: fd_paths name inherited, created, dup'ed and returned descriptors" \
	python3 - "$TMP/b.yjson" "$TMP/b.print" <<'EOF2'
import json, re, sys
calls = [o for o in map(json.loads, open(sys.argv[1])) if o['type'] == 'syscall']
# The same names as print --strace -y of the same trace, call by call.
text = [l for l in open(sys.argv[2]) if re.match(r'^\d+ +\w+\(', l)]
bad = 0
for o, line in zip(calls, text):
    want = {}
    for fd, name, deleted in re.findall(r'\b(\d+)<([^>]*)>(\(deleted\))?', line.split('(', 1)[1]):
        want.setdefault(fd, name + (' (deleted)' if deleted else ''))
    if o.get('fd_paths', {}) != want:
        bad += 1
        print(o['name'], o.get('fd_paths'), want, file=sys.stderr)
get = lambda n: [o for o in calls if o['name'] == n]
ok = len(calls) == len(text) and not bad and \
    get('read')[-1]['fd_paths'] and \
    any(v.startswith('pipe:[') for o in get('read') for k, v in o.get('fd_paths', {}).items() if k == '0') and \
    list(get('eventfd2')[0]['fd_paths'].values()) == ['anon_inode:[eventfd]']
sys.exit(0 if ok else 1)
EOF2

# --- 5. more descriptors than one PROC record holds (64 KiB): continued --
mkfifo "$TMP/fifo2"
(ulimit -n 4096 && exec python3 -S -c '
import os, sys
fds = [os.open("/dev/null", os.O_WRONLY) for _ in range(3000)]
print("ready", flush=True)
sys.stdin.read(1)
os.write(fds[-1], b"x")
' < "$TMP/fifo2" > "$TMP/m.stdout") &
mpid=$!
exec 7>"$TMP/fifo2"
for _ in $(seq 500); do grep -q ready "$TMP/m.stdout" 2>/dev/null && break; sleep 0.01; done
"$SONDE" record -q -p "$mpid" -o "$TMP/m.trace" 2>"$TMP/m.err" &
spid=$!
for _ in $(seq 1000); do [ -s "$TMP/m.trace" ] && break; sleep 0.01; done
sleep 0.5
echo g >&7
exec 7>&-
wait "$mpid"
for _ in $(seq 500); do kill -0 "$spid" 2>/dev/null || break; sleep 0.01; done
kill "$spid" 2>/dev/null
wait "$spid"
"$SONDE" print --json "$TMP/m.trace" | python3 -c '
import json, sys
p = [o for o in map(json.loads, sys.stdin) if o["type"] == "proc"]
print(len(p), sum(len(o["fds"]) for o in p), p[0]["fds_more"], p[-1]["fds_continued"])' > "$TMP/m.procs"
check "strace_fdpaths: 3000 descriptors go in continued proc records ($(cat "$TMP/m.procs"))" \
	grep -qE '^[2-9] 300[3-9] True True$' "$TMP/m.procs"
"$SONDE" print --strace -y "$TMP/m.trace" > "$TMP/m.print"
check "strace_fdpaths: the last of them is named" grep -qE 'write\([0-9]+</dev/null>, "x", 1\)' "$TMP/m.print"
"$SONDE" print "$TMP/m.trace" > "$TMP/m.text"
check "strace_fdpaths: a continuation is not printed as a process" \
	[ "$(grep -c -- '--- process' "$TMP/m.text")" = 1 ]

# --- 6. -yy: socket endpoints and device numbers as strace -yy -----------
(cd "$D" && echo go | strace -f -yy -o "$TMP/y.strace" "$F" run "$D/sock" 2>/dev/null | cat >/dev/null)
(cd "$D" && echo go | "$SONDE" strace -f -yy -o "$TMP/y.sonde" "$F" run "$D/sock" 2>/dev/null | cat >/dev/null)
check "strace_fdpaths -yy: strace names UNIX sockets by peer and path (the reference is not empty)" \
	grep -qE 'UNIX-STREAM:\[[0-9]+->[0-9]+,"' "$TMP/y.strace"
res=$(python3 tests/integration/strace_norm.py "$TMP/y.strace" "$TMP/y.sonde")
echo "# strace_fdpaths sonde strace -yy: $(head -1 <<<"$res" | cut -d' ' -f2-3 | sed 's/ / of /') strace lines matched"
bad=$(tail -n +2 <<<"$res" | grep -E '(pipe|socket):\[|[A-Z]+[A-Za-z0-9-]*:\[|anon_inode:|memfd:|pid:|<char ')
if [ -z "$bad" ]; then ok "strace_fdpaths -yy: every socket, pipe, pidfd and device line as strace -yy"
else notok "strace_fdpaths -yy: lines differ: $(head -c 600 <<<"$bad")"; fi
cat > "$TMP/net.py" <<'PY'
import socket
s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen()
c = socket.socket(); c.connect(s.getsockname()); a, _ = s.accept(); c.send(b'x'); a.recv(1)
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.connect(('127.0.0.1', 9)); u.send(b'x')
s6 = socket.socket(socket.AF_INET6); s6.bind(('::1', 0)); s6.listen()
c6 = socket.socket(socket.AF_INET6); c6.connect(s6.getsockname()[:2]); a6, _ = s6.accept(); c6.send(b'x')
d = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); d.bind('\0sonde-fdpaths'); d.getsockname()
n = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0); n.bind((0, 0)); n.getsockname()
PY
tr=socket,bind,listen,connect,accept4,sendto,recvfrom,getsockname
strace -yy -e trace=$tr -o "$TMP/n.strace" python3 -S "$TMP/net.py" 2>/dev/null
"$SONDE" strace -yy -e trace=$tr -o "$TMP/n.sonde" python3 -S "$TMP/net.py" 2>/dev/null
# Ports, inodes and netlink port ids (the process's pid, any number of
# digits) differ from run to run; sockaddr_nl's nl_pad is a decoder
# difference of its own (docs/strace-differences.md).
nnorm() {
	grep -E '<(TCP|UDP|TCPv6|UNIX|NETLINK)' "$1" |
		sed -E 's/nl_pad=0x[0-9a-f]+, //; s/(nl_pid=|ROUTE:)[0-9]+/\1N/g; s/[0-9]{4,}/N/g'
}
check "strace_fdpaths -yy: TCP, TCPv6, UDP, UNIX (abstract) and NETLINK endpoints as strace -yy" \
	diff <(nnorm "$TMP/n.strace") <(nnorm "$TMP/n.sonde")
check "strace_fdpaths -yy: the comparison covers connected TCPv6 names" \
	grep -qE 'TCPv6:\[\[::1\]:[0-9]+->\[::1\]:[0-9]+\]' "$TMP/n.sonde"
check "strace_fdpaths -yy: the comparison covers bound NETLINK names" \
	grep -qE 'NETLINK:\[ROUTE:[0-9]+\]' "$TMP/n.sonde"
"$SONDE" record -q -o "$TMP/n.trace" -- python3 -S "$TMP/net.py" 2>/dev/null
check "strace_fdpaths --json -yy: fd_paths name sockets by their endpoints" \
	grep -qE '"fd_paths":\{[^}]*"TCPv6:\[\[::1\]:[0-9]+->\[::1\]:[0-9]+\]"' <("$SONDE" print --json -yy "$TMP/n.trace")
