#!/usr/bin/env bash
# Netlink messages decoded as strace 6.1 decodes them: real commands (ip,
# getaddrinfo's AI_ADDRCONFIG, ss) and the nl_msgs fixture (NLMSG_ERROR with
# the echoed request, capped acknowledgements, an unknown type, a message
# longer than its buffer, a buffer too short for a header, several
# messages in one buffer, trailing bytes, sendmsg with and without a
# netlink name, hostile attributes, neighbours, rules, NETLINK_AUDIT's
# message types) under Debian's `strace -f -e trace=%network` and under
# `sonde strace`, compared whole. Only what changes from run to run is
# normalised: pids, nlmsg_seq (ip uses the time), port ids (nl_pid,
# nlmsg_pid), interface counters (IFLA_STATS, IFLA_STATS64, IPv6's) and
# IPv6's randomised reachable time; the
# fixture binds fixed port ids and needs none of that but the pids.
# SIGCHLD lines are left out (getaddrinfo's python forks; a child's
# si_utime is timing).
. "$(dirname "$0")/lib.sh"
need_root
command -v strace >/dev/null || { notok "strace_netlink: Debian's strace is not installed"; exit 1; }
command -v ip >/dev/null || { notok "strace_netlink: ip (iproute2) is not installed"; exit 1; }

norm() {
	sed -E '/ --- SIGCHLD /d; s/^[0-9]+ /PID /; s/si_pid=[0-9]+/si_pid=PID/;
		s/nlmsg_seq=[0-9]+/nlmsg_seq=SEQ/g; s/nlmsg_pid=-?[0-9]+/nlmsg_pid=PORT/g;
		s/nl_pid=-?[0-9]+/nl_pid=PORT/g; s/\{rx_packets=[^}]*\}/{STATS}/g;
		s/((IPSTATS|ICMP6)_MIB_[A-Z0-9_]+\])=[0-9]+/\1=N/g;
		s/reachable_time=[0-9]+/reachable_time=N/g; s/nl_pad=0x[0-9a-f]+/nl_pad=PAD/g' "$1"
}

# The messages of a dump in a sorted order: the kernel lists UNIX sockets
# in the order of their inode numbers' hashes, which change from run to
# run.
sort_msgs() {
	python3 -c '
import sys
def split(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "," and depth == 0:
            out.append(cur.strip()); cur = ""; continue
        depth += ch in "[{"
        depth -= ch in "]}"
        cur += ch
    return out + [cur.strip()]
for line in sys.stdin:
    head, sep, rest = line.partition("iov_base=[[{nlmsg_len=")
    if not sep:
        sys.stdout.write(line)
        continue
    body, depth = "[[{nlmsg_len=" + rest, 0
    for i, ch in enumerate(body):
        depth += ch in "[{"
        depth -= ch in "]}"
        if depth == 0:
            break
    msgs = sorted(split(body[1:i]))
    sys.stdout.write(head + "iov_base=[" + ", ".join(msgs) + body[i:])
'
}

# cmp_run NAME [STRACE-OPTIONS --] COMMAND...: the same run under both.
cmp_run() {
	local name=$1 n=$2
	local -a opts=()
	shift 2
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	strace -f -e trace=%network "${opts[@]}" -o "$TMP/$n.ref" "$@" >/dev/null 2>&1
	"$SONDE" strace -f -e trace=%network "${opts[@]}" -o "$TMP/$n.out" "$@" >/dev/null 2>"$TMP/$n.err"
	norm "$TMP/$n.ref" > "$TMP/$n.r"
	norm "$TMP/$n.out" > "$TMP/$n.o"
	same "strace_netlink: $name as strace" "$TMP/$n.r" "$TMP/$n.o"
}

cmp_run "ip -4 addr show lo" a4 -- ip -4 addr show lo
cmp_run "ip -6 addr show lo" a6 -- ip -6 addr show lo
cmp_run "ip link show lo" link -- ip link show lo
cmp_run "ip route show table local" rt -- ip route show table local
cmp_run "ip -6 route show" rt6 -- ip -6 route show
cmp_run "ip addr" addr -- ip addr
cmp_run "ip rule" rule -- ip rule
cmp_run "ip netconf" netconf -- ip netconf
command -v tc >/dev/null && cmp_run "tc -s qdisc show dev lo" tc -- tc -s qdisc show dev lo
# generic netlink: the family ids named as the kernel names them
ip mptcp endpoint show >/dev/null 2>&1 &&
	cmp_run "ip mptcp endpoint show" genl -- ip mptcp endpoint show
cmp_run "ip -6 rule" rule6 -- ip -6 rule
cmp_run "ip -v link" vlink -v -- ip link
cmp_run "ip -v addr" vaddr -v -- ip addr
cmp_run "getaddrinfo(AI_ADDRCONFIG)" gai -- python3 -c \
	"import socket; socket.getaddrinfo('localhost', 80, flags=socket.AI_ADDRCONFIG)"

# A netlink socket known through a dup and a fork: its sends only (the
# interpreter's other children exit in an order that is timing).
cat > "$TMP/dup.py" <<'PY'
import os, socket, struct
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
s.bind((0, 0))
d = socket.socket(fileno=os.dup(s.fileno()))
msg = struct.pack("=LHHLL", 20, 22, 0x301, 7, 0) + bytes([2, 0, 0, 0])
d.sendto(msg, (0, 0))
pid = os.fork()
if pid == 0:
    s.sendto(msg, (0, 0))
    os._exit(0)
os.waitpid(pid, 0)
PY
strace -f -e trace=sendto -o "$TMP/dup.ref" python3 "$TMP/dup.py" >/dev/null 2>&1
"$SONDE" strace -f -e trace=sendto -o "$TMP/dup.out" python3 "$TMP/dup.py" >/dev/null 2>&1
norm "$TMP/dup.ref" | grep 'sendto(' > "$TMP/dup.r"
norm "$TMP/dup.out" | grep 'sendto(' > "$TMP/dup.o"
same "strace_netlink: a netlink socket dup'ed and inherited as strace" "$TMP/dup.r" "$TMP/dup.o"
check "strace_netlink: the dup'ed and the inherited socket are decoded" \
	test "$(grep -c 'nlmsg_type=RTM_GETADDR' "$TMP/dup.o")" = 2

F=$FIX/nl_msgs
cmp_run "nl_msgs" fx -- "$F"
check "strace_netlink: nl_msgs: NETLINK_AUDIT's types by name, AUDIT_??? past strace's table" \
	bash -c "grep -q 'nlmsg_type=AUDIT_DM_EVENT,' '$TMP/fx.out' && grep -q 'nlmsg_type=0x58c /\\* AUDIT_??? \\*/' '$TMP/fx.out'"
cmp_run "nl_msgs -s 4" fx4 -s 4 -- "$F"
cmp_run "nl_msgs -v" fxv -v -- "$F"
cmp_run "nl_msgs -x" fxx -x -- "$F"
cmp_run "nl_msgs -xx" fxxx -xx -- "$F"
cmp_run "nl_msgs -X raw" fxr -X raw -- "$F"
cmp_run "nl_msgs -X verbose" fxv2 -X verbose -- "$F"

# sock_diag as ss uses it, in a network namespace of its own (nl_diag.c
# says why); inode numbers and cookies change from run to run.
if command -v ss >/dev/null && command -v unshare >/dev/null; then
	D=$FIX/nl_diag
	set -- ss -tanmie -- ss -xae -- ss -uan -- ss -6tan
	unshare -n strace -f -e trace=%network -o "$TMP/diag.ref" "$D" "$@" >/dev/null 2>&1
	unshare -n "$SONDE" strace -f -e trace=%network -o "$TMP/diag.out" "$D" "$@" \
		>/dev/null 2>"$TMP/diag.err"
	for f in ref out; do
		norm "$TMP/diag.$f" | sed -E 's/(idiag_inode|udiag_ino|udiag_vfs_ino)=[0-9]+/\1=N/g;
			s/_cookie=\[[0-9]+, [0-9]+\]/_cookie=[C]/g;
			s/(UNIX_DIAG_PEER\}, )[0-9]+/\1N/g' | sort_msgs > "$TMP/diag.$f.n"
	done
	same "strace_netlink: ss (sock_diag) as strace" "$TMP/diag.ref.n" "$TMP/diag.out.n"
	check "strace_netlink: ss's inet reply decoded" \
		grep -qF 'idiag_state=TCP_LISTEN, idiag_timer=0, idiag_retrans=0, id={idiag_sport=htons(29611)' "$TMP/diag.out.n"
	check "strace_netlink: ss's UNIX reply decoded" \
		grep -qF '[{nla_len=28, nla_type=UNIX_DIAG_NAME}, "/tmp/sonde-nl-diag.sock"]' "$TMP/diag.out.n"
else
	notok "strace_netlink: ss or unshare is not installed"
fi

# What the comparisons rest on: the decoding is there at all.
S=$TMP/fx.o
check "strace_netlink: an error acknowledgement echoes the request" \
	grep -qF '{error=-ENODEV, msg=[{nlmsg_len=44, nlmsg_type=RTM_GETLINK' "$S"
check "strace_netlink: a capped acknowledgement echoes the header only" \
	grep -qE 'nlmsg_flags=NLM_F_CAPPED, [^}]*\}, \{error=-ENODEV, msg=\{nlmsg_len=44, [^}]*\}\}\]' "$S"
check "strace_netlink: an unknown type is named RTM_???" \
	grep -qF 'nlmsg_type=0x3ff /* RTM_??? */' "$S"
check "strace_netlink: a buffer too short for a header is shown in hex" \
	grep -qF 'sendto(3, "\x0a\x00\x00\x00\x03\x00\x00\x00\x00\x00", 10' "$S"
check "strace_netlink: sendmsg without a netlink name shows bytes" \
	grep -qE 'sendmsg\(3, \{msg_name=NULL, msg_namelen=0, msg_iov=\[\{iov_base=",' "$S"
check "strace_netlink: sendmmsg decodes each message's buffer" \
	grep -qF 'sendmmsg(3, [{msg_hdr={msg_name={sa_family=AF_NETLINK, nl_pid=PORT, nl_groups=00000000}, msg_namelen=12, msg_iov=[{iov_base=[{nlmsg_len=44, nlmsg_type=RTM_GETLINK' "$S"
check "strace_netlink: -s 4 cuts the messages of a buffer" \
	grep -qE 'sendto\(3, \[(\[\{nlmsg_len=24, [^]]*\], ){4}\.\.\.\], 144,' "$TMP/fx4.o"
check "strace_netlink: ip's trailing zeroed header as strace shows it" \
	grep -qF '{nlmsg_len=0, nlmsg_type=0 /* NLMSG_??? */, nlmsg_flags=0, nlmsg_seq=SEQ, nlmsg_pid=PORT}], 152' "$TMP/a4.o"
# A recorded trace prints the same way: the socket facts are in it.
"$SONDE" record -o "$TMP/nl.trace" -- "$F" >/dev/null 2>&1
"$SONDE" print --strace "$TMP/nl.trace" > "$TMP/nl.print" 2>&1
check "strace_netlink: sonde print --strace of a recording decodes netlink" \
	grep -qF '{error=-ENODEV, msg=[{nlmsg_len=44, nlmsg_type=RTM_GETLINK' "$TMP/nl.print"
check "strace_netlink: JSON keeps the bytes raw" \
	bash -c "'$SONDE' strace -f -e trace=sendto --json -o '$TMP/j' '$F' >/dev/null 2>&1 && grep -q sendto '$TMP/j'"
