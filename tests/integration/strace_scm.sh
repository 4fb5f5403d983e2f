#!/usr/bin/env bash
# -y and -yy of descriptors received over a UNIX socket (SCM_RIGHTS) and
# of UDP sockets bound implicitly: the fd_scm fixture (a regular file, a
# pipe end, a UDP socket bound by its first sendto and a memfd passed to a
# forked child by sendmsg/recvmsg, then by sendmmsg/recvmmsg, and used
# there; UDP sockets bound by their first sendmsg, sendmmsg and by
# connect) under Debian's `strace -f -y`/`-yy` and under `sonde strace`,
# then `sonde print --strace` of a recorded run, compared line by line by
# strace_norm.py. Port numbers differ from run to run: they are replaced
# by PORT on both sides; SIGCHLD lines are left out (where a signal is
# printed is timing, docs/strace-differences.md).
. "$(dirname "$0")/lib.sh"
need_root
command -v strace >/dev/null || { notok "strace_scm: Debian's strace is not installed (apt-get install strace)"; exit 1; }
F=$FIX/fd_scm
D=$TMP/d
mkdir -p "$D"
echo "passed over a socket" > "$D/file"

ports() { sed -E '/ --- SIGCHLD /d; s/(htons\(|:)[0-9]{4,5}/\1PORT/g' "$1" > "$1.p"; }

# Every line must match strace's: what the fixture does is all about
# the descriptors' names.
scmcheck() {
	local what=$1 ref=$2 got=$3 res m t
	ports "$ref"
	ports "$got"
	res=$(python3 tests/integration/strace_norm.py "$ref.p" "$got.p")
	read -r _ m t <<<"$(head -1 <<<"$res")"
	echo "# strace_scm $what: $m of $t strace lines matched"
	if [ "$m" = "$t" ] && [ "${t:-0}" -gt 50 ]; then
		ok "strace_scm $what: every line as strace"
	else
		notok "strace_scm $what: lines differ: $(tail -n +2 <<<"$res" | head -c 800)"
	fi
}

for y in y yy; do
	for file in "$D/file" /dev/null; do
		n=$(basename "$file")
		(cd "$D" && strace -f -$y -o "$TMP/$y.$n.strace" "$F" "$file" >/dev/null 2>&1)
		(cd "$D" && "$SONDE" strace -f -$y -o "$TMP/$y.$n.sonde" "$F" "$file" >/dev/null 2>"$TMP/err")
		scmcheck "sonde strace -$y, $file" "$TMP/$y.$n.strace" "$TMP/$y.$n.sonde"
	done
done

# Calls joined where they were split (<unfinished ...>, <... resumed>).
strace_joined "$TMP/y.file.sonde" > "$TMP/y.joined"
strace_joined "$TMP/yy.file.sonde" > "$TMP/yy.joined"
S=$TMP/y.joined
R='[0-9]+</[^>]*/d/file>, [0-9]+<pipe:\[[0-9]+\]>, [0-9]+<socket:\[[0-9]+\]>, [0-9]+</memfd:fd_scm>\(deleted\)'
check "strace_scm -y: recvmsg shows the received file, pipe, socket and memfd by name" \
	grep -qE "recvmsg\(.*cmsg_type=SCM_RIGHTS, cmsg_data=\[$R\]" "$S"
check "strace_scm -y: so does recvmmsg" \
	grep -qE "recvmmsg\(.*cmsg_type=SCM_RIGHTS, cmsg_data=\[$R\]" "$S"
check "strace_scm -y: the receiver reads the file by its path" \
	grep -qE '^[0-9]+ read\([0-9]+</[^>]*/d/file>, "passed over a socket\\n", 64\) = 21' "$S"
check "strace_scm -y: the receiver writes to the pipe and the memfd by name" \
	bash -c "grep -qE 'write\([0-9]+<pipe:\[[0-9]+\]>, \"p\"' '$S' && grep -qE 'write\([0-9]+</memfd:fd_scm>\(deleted\), \"m\"' '$S'"
S=$TMP/yy.joined
check "strace_scm -yy: the received UDP socket is named by the port its sender's sendto bound" \
	grep -qE 'sendto\([0-9]+<UDP:\[0\.0\.0\.0:[0-9]+\]>, "u"' "$S"
check "strace_scm -yy: UDP sockets bound by sendmsg and sendmmsg named by port when closed" \
	[ "$(grep -cE '^[0-9]+ close\([45]<UDP:\[0\.0\.0\.0:[0-9]+\]>\)' "$S")" = 2 ]
check "strace_scm -yy: a UDP socket's first sendmsg shows it unbound, the second bound" \
	bash -c "grep -qE 'sendmsg\([0-9]+<UDP:\[[0-9]+\]>, \{msg_name=\{sa_family=AF_INET' '$S' &&
		 grep -qE 'sendmsg\([0-9]+<UDP:\[0\.0\.0\.0:[0-9]+\]>, \{msg_name=\{sa_family=AF_INET' '$S'"

# Recorded, then printed: the facts are in the trace.
(cd "$D" && "$SONDE" record -q -o "$TMP/scm.trace" -- "$F" "$D/file" >/dev/null 2>&1)
for y in y yy; do
	"$SONDE" print --strace -$y "$TMP/scm.trace" > "$TMP/$y.print" 2>"$TMP/err"
	scmcheck "print --strace -$y" "$TMP/$y.file.strace" "$TMP/$y.print"
done
"$SONDE" print --json -y "$TMP/scm.trace" > "$TMP/scm.json"
check "strace_scm --json -y: recvmsg's fd_paths name the received descriptors" \
	python3 - "$TMP/scm.json" <<'EOF'
import json, sys
calls = [o for o in map(json.loads, open(sys.argv[1])) if o.get('name') == 'recvmsg']
names = sorted(v.split(':')[0] for v in calls[0]['fd_paths'].values()) if calls else []
ok = len(calls) == 1 and any(v.endswith('/d/file') for v in calls[0]['fd_paths'].values()) and \
    '/memfd' in names and names.count('socket') == 2 and 'pipe' in names
sys.exit(0 if ok else 1)
EOF
