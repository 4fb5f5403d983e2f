#!/usr/bin/env bash
# Calls a seccomp filter answers, against Debian's strace 6.1 on
# tests/fixtures/seccomp_calls: the kernel skips them before the sys_enter
# tracepoint, so the recorder takes them from their return
# (SONDE_SC_NO_ENTRY). SECCOMP_RET_ERRNO, _TRAP (its SIGSYS line),
# _USER_NOTIF (an error answer and a continued call), _KILL_PROCESS (no
# line for the forced SIGSYS, as strace), a clone refused; print --json's
# "no_entry"; a recorder itself run under a filter (a container's case)
# records its command from the execve on, as without one.
. "$(dirname "$0")/lib.sh"
need_root
need_strace
F=$FIX/seccomp_calls

# compare NAME ARGS...: strace -ff and sonde strace -ff of the fixture.
compare() {
	local name=$1
	shift
	ff_run "$F" "$@"
	ff_norm "$TMP/a" > "$TMP/a.n"
	ff_norm "$TMP/b" > "$TMP/b.n"
	same "strace_seccomp: $name as strace" "$TMP/a.n" "$TMP/b.n"
}

compare "SECCOMP_RET_ERRNO, _TRAP and a refused clone"
check "strace_seccomp: the refused openat shows its path" \
	grep -q '^openat(AT_FDCWD, "/etc/hostname", O_RDONLY) = -1 EACCES' "$TMP/b.n"
compare "SECCOMP_RET_USER_NOTIF (an error answer, a continued call)" notify
check "strace_seccomp: the answered getcwd" grep -q '^getcwd(ADDR, 64) = -1 ERANGE' "$TMP/b.n"
compare "SECCOMP_RET_KILL_PROCESS" kill
check "strace_seccomp: the killing call, then the death, no SIGSYS line" \
	grep -qzP 'acct\(NULL\) = 163\n\+\+\+ killed by SIGSYS( \(core dumped\))? \+\+\+' "$TMP/b.n"

# -f, one file: the same lines (one task, no interleaving).
strace -f -o "$TMP/a.f" "$F" > /dev/null 2>&1
"$SONDE" strace -f -o "$TMP/b.f" "$F" > /dev/null 2>&1
sed -E -e 's/^[0-9]+ +//' -e 's/\b[0-9]{3,}\b/N/g' -e 's/0x[0-9a-f]+/ADDR/g' "$TMP/a.f" > "$TMP/a.fn"
sed -E -e 's/^[0-9]+ +//' -e 's/\b[0-9]{3,}\b/N/g' -e 's/0x[0-9a-f]+/ADDR/g' "$TMP/b.f" > "$TMP/b.fn"
same "strace_seccomp: -f as strace -f" "$TMP/a.fn" "$TMP/b.fn"

# The recorded trace: each answered call flagged, the others not.
"$SONDE" record -q -o "$TMP/s.trace" "$F" > /dev/null 2>&1
"$SONDE" print --json "$TMP/s.trace" > "$TMP/s.json"
python3 - "$TMP/s.json" > "$TMP/json.out" <<'EOF'
import json, sys
calls = [o for o in map(json.loads, open(sys.argv[1])) if o["type"] == "syscall"]
flagged = sorted({c["name"] for c in calls if c.get("no_entry")})
print(" ".join(flagged))
EOF
echo "clone getppid mkdir openat uname" > "$TMP/json.want"
same "strace_seccomp: print --json: no_entry on the answered calls only" \
	"$TMP/json.want" "$TMP/json.out"
"$SONDE" print "$TMP/s.trace" > "$TMP/s.txt"
check "strace_seccomp: print: the text says the filter answered" \
	grep -q 'uname(.*EPERM.*(answered by seccomp, never entered)' "$TMP/s.txt"

# sonde under a filter (its command too): the command's first call is its
# execve, not the launcher's read of its go pipe, and nothing more shows
# than without the filter.
"$F" wrap "$SONDE" strace -o "$TMP/w.s" /bin/true > /dev/null 2>&1
"$SONDE" strace -o "$TMP/u.s" /bin/true > /dev/null 2>&1
check "strace_seccomp: under a filter, the command starts at its execve" \
	grep -q '^execve("/bin/true"' <(head -1 "$TMP/w.s")
sed -E 's/0x[0-9a-f]+/ADDR/g; s/\b[0-9]{3,}\b/N/g' "$TMP/w.s" > "$TMP/w.n"
sed -E 's/0x[0-9a-f]+/ADDR/g; s/\b[0-9]{3,}\b/N/g' "$TMP/u.s" > "$TMP/u.n"
same "strace_seccomp: under a filter, the same lines as without" "$TMP/u.n" "$TMP/w.n"
