#!/usr/bin/env bash
# Values without a name (an unknown socket family, whence, clock, prctl
# option...) printed as Debian's strace prints them: in hex with the
# table's "XXX_???" comment (signals in decimal), each call made with
# ctypes and compared line by line with strace's; and -X raw / -X verbose
# on fixtures, every line as strace prints it.
. "$(dirname "$0")/lib.sh"
need_root
command -v strace > /dev/null || { notok "strace_values: Debian's strace is not installed"; exit 1; }

cat > "$TMP/u.py" <<'PY'
import ctypes
l = ctypes.CDLL(None)
calls = [
    (41, 99, 1, 0),           # socket: family
    (41, 2, 99, 0),           # socket: type, unnamed flag bits
    (41, 2, 1, 999),          # socket: protocol
    (41, 16, 3, 99),          # socket: netlink protocol
    (48, 0, 9),               # shutdown: how
    (54, 0, 999, 2, 0, 0),    # setsockopt: level (strace's "SOL_??")
    (54, 0, 1, 999, 0, 0),    # setsockopt: SOL_SOCKET option
    (54, 0, 6, 999, 0, 0),    # setsockopt: TCP option
    (54, 0, 0, 999, 0, 0),    # setsockopt: IP option
    (54, 0, 41, 999, 0, 0),   # setsockopt: IPv6 option
    (233, 0, 9, 0, 0),        # epoll_ctl: op
    (302, 0, 99, 0, 0),       # prlimit64: resource
    (14, 9, 0, 0, 8),         # rt_sigprocmask: how
    (13, 99, 0, 0, 8),        # rt_sigaction: signal (decimal)
    (72, 0, 999, 0),          # fcntl: cmd
    (8, 0, 0, 9),             # lseek: whence
    (221, 0, 0, 0, 99),       # fadvise64: advice
    (228, 99, 0),             # clock_gettime: clock
    (247, 9, 0, 0, 4, 0),     # waitid: idtype
    (36, 9, 0),               # getitimer: which
    (98, 9, 0),               # getrusage: who
    (140, 9, 0),              # getpriority: which
    (144, 0, 99, 0),          # sched_setscheduler: policy
    (157, 999, 0, 0, 0, 0),   # prctl: option
    (31, 0, 99, 0),           # shmctl: cmd
    (71, 0, 99, 0),           # msgctl: cmd
]
for c in calls:
    l.syscall(*c)
PY
T=socket,shutdown,setsockopt,epoll_ctl,prlimit64,rt_sigprocmask,rt_sigaction,fcntl,lseek,fadvise64,clock_gettime,waitid,getitimer,getrusage,getpriority,sched_setscheduler,prctl,shmctl,msgctl
strace -e trace=$T -o "$TMP/ref" python3 -S "$TMP/u.py"
$SONDE strace -e trace=$T -o "$TMP/out" python3 -S "$TMP/u.py"
# The script's calls are the last 26 lines, less python's own signal
# handlers and descriptor checks.
n=26
ref=$(grep -vE '^(\+\+\+|rt_sigaction\(SIG|fcntl\([0-9]+, F_)' "$TMP/ref" | tail -$n)
out=$(grep -vE '^(\+\+\+|rt_sigaction\(SIG|fcntl\([0-9]+, F_)' "$TMP/out" | tail -$n)
check "strace_values: $n calls with unnamed values made" [ "$(wc -l <<<"$ref")" = $n ]
i=0
while IFS= read -r a && IFS= read -r b <&3; do
	i=$((i + 1))
	if [ "$a" = "$b" ]; then
		ok "strace_values: ${a%%(*} #$i as strace prints it"
	else
		notok "strace_values: #$i: strace '$a', sonde '$b'"
	fi
done < <(echo "$ref") 3< <(echo "$out")

# -X raw and -X verbose on fixtures with flags, enums, signal sets,
# socket addresses, rlimits, device numbers and fcntl results: every line
# as strace prints it (strace_norm.py: pids, addresses, times).
# A pair of runs that differs is shown and run again once: in 2 of about
# 15 runs of this script (2026-11-26), one line of "fs mmap -X verbose"
# differed, and 30 runs of that pair alone, idle or loaded, never did.
# A decoding defect differs every time, and still fails.
values_pair() { # X FIXTURE MODE
	local d=$TMP/d args=$3
	rm -rf "$d"; mkdir -p "$d"
	[ "$2" = fs ] && args="$3 $d"
	(cd "$d" && strace -f -X "$1" -o "$TMP/x.ref" "$FIX/strace_$2" $args < /dev/null > /dev/null 2>&1)
	rm -rf "$d"; mkdir -p "$d"
	(cd "$d" && $SONDE strace -f -X "$1" -o "$TMP/x.out" "$FIX/strace_$2" $args < /dev/null > /dev/null 2>&1)
	python3 tests/integration/strace_norm.py "$TMP/x.ref" "$TMP/x.out" > "$TMP/x.cmp"
	read -r _ m t < "$TMP/x.cmp"
}

for X in raw verbose; do
	for w in "fs fcntl" "fs stat" "fs mmap" "net inet" "net unix" "proc signals"; do
		set -- $w
		values_pair "$X" "$1" "$2"
		if [ "$m" != "$t" ]; then
			echo "# strace_values: -X $X, $1 $2: $m/$t lines at the first run, run again:"
			tail -n +2 "$TMP/x.cmp" | head -10 | sed 's/^/#   /'
			values_pair "$X" "$1" "$2"
		fi
		check "strace_values: -X $X, $1 $2: $m/$t lines as strace prints them" [ "$m" = "$t" ]
	done
done
