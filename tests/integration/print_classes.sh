#!/usr/bin/env bash
# -e trace=%CLASS selects the same syscalls as Debian's strace: for real
# commands, the set of syscall names sonde print keeps under each class
# equals the set strace -f -e trace=%CLASS shows for the same command;
# bare historic class names and syscall numbers too.
. "$(dirname "$0")/lib.sh"
need_root
if ! command -v strace > /dev/null; then
	notok "strace is needed for this test (apt-get install strace)"
	exit 1
fi

names_strace() { # file: syscall names strace -f -o printed ("PID name(...")
	sed -E 's/^[0-9]+ +//; s/^<\.\.\. ([a-z0-9_]+) resumed>.*/\1(/' "$1" |
		grep -E -o '^[a-z0-9_]+\(' | tr -d '(' | sort -u
}
names_sonde() { # trace class
	"$SONDE" print -e "trace=$2" --events syscall "$1" |
		sed -E 's/^\[pid +[0-9]+\] ([a-z0-9_]+)\(.*/\1/' | sort -u
}

i=0
# The python3 one reaches %network, %signal, %ipc-free %clock (a CPU-time
# clock is not in the vDSO) and %creds.
for cmd in "ls -la /usr" "sh -c 'cat /etc/passwd | wc -l; sleep 0.01 & wait'" \
	   "python3 -c 'import socket, os, time; a, b = socket.socketpair(); a.send(b\"x\"); b.recv(1); os.kill(os.getpid(), 0); time.clock_gettime(time.CLOCK_PROCESS_CPUTIME_ID); os.setuid(0)'"; do
	i=$((i + 1))
	if ! eval "\"$SONDE\" record -o \"$TMP/c$i.sonde\" -- $cmd" > /dev/null 2> "$TMP/rec$i.err"; then
		notok "record $cmd"
		cat "$TMP/rec$i.err"
		continue
	fi
	# and strace's historic bare names (signal is the class, not i386's
	# signal(2)) and syscall numbers (x86-64's).
	for class in %file %desc %process %network %memory %signal %ipc %creds \
		     %clock %pure %%stat %%statfs signal ipc 0,1,3,13,61; do
		eval "strace -f -qq -o \"$TMP/st\" -e trace=$class $cmd" > /dev/null 2>&1
		names_strace "$TMP/st" > "$TMP/a"
		names_sonde "$TMP/c$i.sonde" "$class" > "$TMP/b"
		if cmp -s "$TMP/a" "$TMP/b"; then
			ok "${cmd%% *} #$i: -e trace=$class keeps what strace keeps ($(wc -l < "$TMP/a") names)"
		else
			notok "${cmd%% *} #$i: -e trace=$class differs from strace (< strace, > sonde):"
			diff "$TMP/a" "$TMP/b" | grep '^[<>]' | sed 's/^/    /'
		fi
	done
done
