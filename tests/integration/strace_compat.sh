#!/usr/bin/env bash
# strace options beyond the common output ones, against Debian's strace
# 6.1: -n (syscall numbers) and -e raw=SET (undecoded calls), in `sonde
# strace` and `sonde print --strace`, on one workload: a shell that runs
# cat (a child: vfork, wait4, SIGCHLD) and then kills itself (signal and
# "+++ killed by" lines, which -n numbers with the task's last call);
# logs normalised by strace_lines.py and diffed. -E and -u (the command's
# environment and user), -V, the options accepted for scripts
# (--seccomp-bpf, -I) and those refused with the reason; -e fault= and
# -e inject= as strace.
# -ff -o PREFIX: a file per process, its lines unsplit and unprefixed.
# -o |CMD and -o !CMD: the output piped to a command.
. "$(dirname "$0")/lib.sh"
need_root
need_strace
L=tests/integration/strace_lines.py
W='cat /etc/hostname > /dev/null; kill -TERM $$'
# getppid returns the tracer's pid, which differs by construction; where
# SIGCHLD's handler runs among the shell's calls (rt_sigreturn) is a race
# (docs/strace-differences.md).
NOPP='-e trace=!getppid,rt_sigreturn'

# compare NAME ARGS...: strace and sonde strace, -f -o, same options.
compare() {
	local name=$1
	shift
	strace -f -o "$TMP/ref" "$@" sh -c "$W" > /dev/null 2>&1
	"$SONDE" strace -f -o "$TMP/got" "$@" sh -c "$W" > /dev/null 2>&1
	norm "$TMP/ref" > "$TMP/ref.n"
	norm "$TMP/got" > "$TMP/got.n"
	same "strace_compat: $name as strace" "$TMP/ref.n" "$TMP/got.n"
}
# norm LOG: strace_lines.py's form, each process's lines together in
# their order (how the shell's and cat's lines interleave is timing), and
# the process ids that -e raw=
# prints in hex (results of getpid, set_tid_address, vfork, wait4 and of
# the rt_sigreturn that restores one; kill's first argument) masked as
# strace_lines.py masks them in decimal.
norm() {
	python3 $L --order "$1" |
		sed -E -e '/ (getpid|set_tid_address|vfork|clone|wait4|rt_sigreturn)\(/ s/= 0x[0-9a-f]+$/= 0xPID/' \
			-e 's/ kill\(0x[0-9a-f]+,/ kill(0xPID,/' | sort -s -k1,1
}
# SIGCHLD's place among the parent's calls is a race
# (docs/strace-differences.md): signal=none keeps it out of the diff.
compare "-n" -n $NOPP -e signal=none
check "strace_compat: -n numbers every line" \
	[ "$(grep -cv '^T[0-9]* \[ *[0-9]*\] ' "$TMP/got.n")" = 0 ]
# Lines that are no call's take the number of the task's last call, even
# one -e trace= hides: the child's exit_group, the shell's kill.
compare "-n -e trace=kill: exit and signal lines" -n -e trace=kill -e 'signal=!SIGCHLD'
check "strace_compat: -n numbers the killed-by line with the task's last call (kill)" \
	grep -qE '^T[0-9]+ \[  62\] \+\+\+ killed by SIGTERM \+\+\+$' "$TMP/got.n"
check "strace_compat: -n numbers an exit line with the hidden exit_group" \
	grep -qE '^T[0-9]+ \[ 231\] \+\+\+ exited with 0 \+\+\+$' "$TMP/got.n"
# The -n prefix counts in the -a column, byte for byte as strace.
strace -n -o "$TMP/a.ref" cat /etc/hostname > /dev/null
"$SONDE" strace -n -o "$TMP/a.got" cat /etc/hostname > /dev/null
check "strace_compat: -n: lines aligned at column 40 as strace's" \
	[ "$(grep -m1 '^\[   3\] close(3) ' "$TMP/a.ref")" = "$(grep -m1 '^\[   3\] close(3) ' "$TMP/a.got")" ]
compare "-e raw=openat,read,mmap,close,wait4" $NOPP -e signal=none \
	-e raw=openat,read,mmap,close,wait4
check "strace_compat: -e raw= prints openat's arguments and result in hex" \
	grep -qE '^T[0-9]+ openat\(0xADDR, 0xADDR, 0x80000, 0\) = 0x3$' "$TMP/got.n"
check "strace_compat: -e raw= leaves the other calls decoded" \
	grep -qE '^T[0-9]+ newfstatat\(3, "", \{st_mode=' "$TMP/got.n"
compare "--raw=all --syscall-number" $NOPP -e signal=none --raw=all --syscall-number

# Offline: the same workload recorded, printed with the same options.
"$SONDE" record -q -o "$TMP/w.sonde" -- sh -c "$W" > /dev/null 2>&1
strace -f -o "$TMP/ref" -n -e raw=openat,read $NOPP -e signal=none sh -c "$W" > /dev/null 2>&1
"$SONDE" print --strace -n -e raw=openat,read $NOPP -e signal=none "$TMP/w.sonde" > "$TMP/off"
norm "$TMP/ref" > "$TMP/ref.n"
norm "$TMP/off" > "$TMP/off.n"
same "strace_compat: print --strace -n -e raw= as strace" "$TMP/ref.n" "$TMP/off.n"
"$SONDE" print -n "$TMP/w.sonde" > /dev/null 2> "$TMP/e"
check_all "strace_compat: print -n without --strace is refused (status 2)" \
	[ $? = 2 ] '&&' \
	grep -q -- '-n is for --strace' "$TMP/e"

# -E and -u: what the command sees, and the trace starts at its execve.
env_of() { # TOOL...: FOO and HOME as the command sees them
	"$@" -E FOO=1 -E FOO=bar -E HOME -o "$TMP/e.log" sh -c 'echo "$FOO ${HOME-unset}"'
}
check_all "strace_compat: -E VAR=VAL sets (the last wins), -E VAR unsets, as strace" \
	[ "$(env_of "$SONDE" strace)" = "$(env_of strace)" ] '&&' \
	[ "$(env_of "$SONDE" strace)" = "bar unset" ]
check "strace_compat: -E: execve shows the edited environment's size" \
	grep -q "/\* $(env -u HOME FOO=bar env | wc -l) vars \*/) = 0" "$TMP/e.log"
check "strace_compat: -u nobody runs the command as nobody, as strace" \
	[ "$("$SONDE" strace -u nobody -o /dev/null id)" = "$(strace -u nobody -o /dev/null id)" ]
"$SONDE" strace -f -u nobody -o "$TMP/u.log" id > /dev/null
check "strace_compat: -u: the first line is the command's execve (no set-up calls)" \
	grep -qE '^[0-9]+ +execve\("/usr/bin/id", \["id"\]' <(head -1 "$TMP/u.log")
printf '#!/bin/sh\necho hi\n' > "$TMP/priv.sh"
chmod 700 "$TMP/priv.sh"
chmod 755 "$TMP"
"$SONDE" strace -u nobody -o /dev/null "$TMP/priv.sh" > /dev/null 2> "$TMP/priv.err"
check_all "strace_compat: -u nobody on a program only root may run: strace's message, status 126" \
	[ $? = 126 ] '&&' \
	grep -qx 'sonde strace: exec: Permission denied' "$TMP/priv.err"
"$SONDE" strace -u nosuchuser true > /dev/null 2> "$TMP/nouser.err"
check_all "strace_compat: -u with an unknown user is refused (status 2)" \
	[ $? = 2 ] '&&' \
	grep -q "Cannot find user 'nosuchuser'" "$TMP/nouser.err"

# The options sonde accepts for scripts written for strace.
"$SONDE" strace -V > "$TMP/v" 2>&1
check_all "strace_compat: -V prints the version, status 0" \
	[ $? = 0 ] '&&' \
	grep -q '^sonde strace -- version ' "$TMP/v"
"$SONDE" strace -f -o "$TMP/a" -e trace=openat true > /dev/null 2>&1
"$SONDE" strace --seccomp-bpf -I 2 -f -o "$TMP/b" -e trace=openat true > /dev/null 2>&1
check_all "strace_compat: --seccomp-bpf and -I 2 change nothing" \
	[ $? = 0 ] '&&' \
	[ "$(python3 $L --order "$TMP/a")" = "$(python3 $L --order "$TMP/b")" ]
for bad in "-I 5" "-e inject=openat" "-e raw=nosuchcall" "-y --decode-fds=path" \
	"--decode-fds=bogus" "-e status=bogus"; do
	# shellcheck disable=SC2086
	strace $bad true > /dev/null 2>&1
	r=$?
	# shellcheck disable=SC2086
	"$SONDE" strace $bad true > /dev/null 2> "$TMP/bad.err"
	check "strace_compat: $bad: refused as strace refuses it (status 2, with the reason)" \
		[ $? = 2 -a $r != 0 -a -s "$TMP/bad.err" ]
done
# -e status=SET: each class, sets, "!" and none, on calls that succeed,
# fail (modify_ldt's errors come as 32-bit numbers) and never return
# (exit_group), line for line as strace.
for st in successful failed unfinished 'failed,unfinished' '!failed' none all unavailable,detached; do
	pid_headroom
	strace -f -o "$TMP/st.strace" -e status="$st" "$FIX/strace_x_old" ldt > /dev/null 2>&1
	pid_headroom
	"$SONDE" strace -f -o "$TMP/st.sonde" -e status="$st" "$FIX/strace_x_old" ldt > /dev/null 2>&1
	res=$(python3 tests/integration/strace_norm.py "$TMP/st.strace" "$TMP/st.sonde")
	read -r _ m t <<<"$(head -1 <<<"$res")"
	check "strace_compat: -e status=$st: $m/$t lines as strace" \
		[ "$m" = "$t" -a "$(wc -l <<<"$res")" = 1 ]
done

# -e fault= and -e inject= (strace_inject.sh has the rest): true cannot
# load its libraries, with the same words and status as under strace.
for o in "-e fault=openat" "-e inject=openat:error=ENOENT"; do
	# shellcheck disable=SC2086
	strace $o -o /dev/null true > "$TMP/f.a" 2>&1
	a=$?
	# shellcheck disable=SC2086
	"$SONDE" strace $o -o /dev/null true > "$TMP/f.b" 2>&1
	check "strace_compat: $o: the command's status ($a) and message as strace" \
		[ $? = $a -a "$(cat "$TMP/f.a")" = "$(cat "$TMP/f.b")" -a -s "$TMP/f.a" ]
done

# strace options sonde has no counterpart of: refused with the reason,
# not as unknown.
for o in "-b open:only execve" "-DDDD:too many"; do
	# shellcheck disable=SC2086 # the option and its value are two words
	"$SONDE" strace ${o%%:*} true > /dev/null 2> "$TMP/refused.err"
	check_all "strace_compat: ${o%%:*} is refused with the reason (status 2)" \
		[ $? = 2 ] '&&' grep -q "${o#*:}" "$TMP/refused.err"
done
# -b execve: a process that execs (a child's execve, a shell's exec, an
# execveat), not the command's own first, ends with its entering half and
# " <detached ...>", and nothing more of it shows, nor of what it forks
# then; with -c its calls after that are not counted.
# Whether another task's line comes between such an execve's entry and
# the exec (then strace prints " <unfinished ...>", never resumed, else
# " <detached ...>") is a race: the two endings are compared as one. The
# fixture blocks SIGCHLD, so no signal lands at a time-dependent place.
for cmd in "$FIX/strace_stack" "sh -c 'exec /bin/true'"; do
	eval "strace -f -b execve -o $TMP/b.strace $cmd" > /dev/null 2>&1
	eval "\"$SONDE\" strace -f -b execve -o $TMP/b.sonde $cmd" > /dev/null 2>&1
	sed -i -E '/ execve\(/ s/ <(unfinished|detached) \.\.\.>$/ <END>/' "$TMP/b.strace" "$TMP/b.sonde"
	res=$(python3 tests/integration/strace_norm.py "$TMP/b.strace" "$TMP/b.sonde")
	read -r _ m t <<<"$(head -1 <<<"$res")"
	check_all "strace_compat: -b execve of ${cmd##*/}: $m/$t lines as strace" \
		[ "$m" = "$t" -a "$(wc -l <<<"$res")" = 1 ] '&&' grep -q ' <END>$' "$TMP/b.sonde"
done
# strace says "Process N detached" when its output is standard error.
"$SONDE" strace -f -b execve sh -c 'exec /bin/true' > /dev/null 2> "$TMP/b.err"
check "strace_compat: -b execve: Process N detached, on standard error" \
	grep -q '^sonde strace: Process [0-9]* detached$' "$TMP/b.err"
strace -f -c -b execve -o "$TMP/bc.strace" sh -c '/bin/true; /bin/true' > /dev/null 2>&1
"$SONDE" strace -f -c -b execve -o "$TMP/bc.sonde" sh -c '/bin/true; /bin/true' > /dev/null 2>&1
count_rows "$TMP/bc.strace" | awk '{ print $1, $2 }' | sort > "$TMP/bc.a"
count_rows "$TMP/bc.sonde" | awk '{ print $1, $2 }' | sort > "$TMP/bc.b"
same "strace_compat: -c -b execve: the calls counted as strace" "$TMP/bc.a" "$TMP/bc.b"

# -ff: strace's files and sonde's, each file's lines prefixed with the pid
# of its name (strace -f -o's form) and compared as above.
ff_joined() {
	local f
	for f in "$1".*; do
		sed "s/^/${f##*.} /" "$f"
	done
}
mkdir -p "$TMP/ffr" "$TMP/ffg"
strace -ff -o "$TMP/ffr/o" $NOPP -e signal=none sh -c "$W" > /dev/null 2>&1
"$SONDE" strace -ff -o "$TMP/ffg/o" $NOPP -e signal=none sh -c "$W" > /dev/null 2>&1
check_all "strace_compat: -ff writes one file per process (2)" \
	[ "$(ls "$TMP/ffg" | wc -l)" = 2 ] '&&' \
	[ "$(ls "$TMP/ffr" | wc -l)" = 2 ]
n=$(cat "$TMP"/ffg/o.* | grep -cE '^[0-9]|unfinished|resumed')
check "strace_compat: -ff lines carry no pid and are never split" [ "$n" = 0 ]
ff_joined "$TMP/ffr/o" > "$TMP/ffr.all"
ff_joined "$TMP/ffg/o" > "$TMP/ffg.all"
norm "$TMP/ffr.all" > "$TMP/ffr.n"
norm "$TMP/ffg.all" > "$TMP/ffg.n"
same "strace_compat: -ff files as strace's" "$TMP/ffr.n" "$TMP/ffg.n"
"$SONDE" strace --output-separately -o "$TMP/ffg/long" true > /dev/null 2>&1
check "strace_compat: --output-separately is -ff" [ "$(ls "$TMP"/ffg/long.* | wc -l)" = 1 ]
"$SONDE" strace -ff -c -o "$TMP/ffg/c" true > /dev/null 2> "$TMP/ffc.err"
check_all "strace_compat: -ff with -c is refused, as by strace" \
	[ $? = 2 ] '&&' \
	grep -q -- '-ff' "$TMP/ffc.err"

# -o |CMD and -o !CMD: the output piped to a shell command (no file of
# that name), the same lines as strace's; refused with -ff, as by strace;
# a command that exits early breaks the pipe: tracing stops with the
# reason and status 1, the traced command runs on to its end.
strace -f -o "|cat > $TMP/pr" $NOPP -e signal=none sh -c "$W" > /dev/null 2>&1
"$SONDE" strace -f -o "|cat > $TMP/pg" $NOPP -e signal=none sh -c "$W" > /dev/null 2>&1
norm "$TMP/pr" > "$TMP/pr.n"
norm "$TMP/pg" > "$TMP/pg.n"
same "strace_compat: -o '|cat > FILE' as strace's" "$TMP/pr.n" "$TMP/pg.n"
(cd "$TMP" && "$SONDE" strace -o "!cat > $TMP/bang" true > /dev/null 2>&1)
check_all "strace_compat: -o '!cat > FILE' pipes too, and makes no file named after it" \
	grep -q '^execve("/usr/bin/true"' "$TMP/bang" '&&' \
	[ -z "$(ls "$TMP" | grep -F '!cat')" ]
"$SONDE" strace -c -o "|cat > $TMP/pc" true > /dev/null 2>&1
check "strace_compat: -c -o '|CMD' pipes the summary" grep -q ' total$' "$TMP/pc"
"$SONDE" strace -ff -o "|cat" true > /dev/null 2> "$TMP/pff.err"
check_all "strace_compat: -ff -o '|CMD' is refused, as by strace" \
	[ $? = 2 ] '&&' grep -q -- '-ff' "$TMP/pff.err"
# (20 000 one-byte reads and writes: ~1.7 MB of lines, far past a pipe's
# 64 KiB, so the pipe breaks while the command runs)
"$SONDE" strace -o '|head -1 > /dev/null' dd if=/dev/zero of="$TMP/dd.out" bs=1 count=20000 \
	status=none 2> "$TMP/pb.err"
rc=$?
check_all "strace_compat: -o '|head -1': the broken pipe stops tracing, status 1, the command completes" \
	[ $rc = 1 ] '&&' grep -q 'Broken pipe; stopped tracing' "$TMP/pb.err" '&&' \
	[ "$(stat -c %s "$TMP/dd.out")" = 20000 ]

# -e read=/write= of vectors: strace's " * N bytes in buffer I" before
# each buffer's dump, the buffers up to the first empty one, and those of
# sendmsg and recvmsg; line for line as strace.
cat > "$TMP/iov.py" << 'PY'
import os, socket, sys
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
os.writev(fd, [b'ab', b'', b'cd'])
os.close(fd)
a, b = socket.socketpair()
a.sendmsg([b'xy', b'z'])
b.recvmsg_into([bytearray(1), bytearray(8)])
PY
for cmd in "$FIX/strace_fs pipe_iov" "/usr/bin/python3 $TMP/iov.py $TMP/iov.out"; do
	# shellcheck disable=SC2086 # the command and its arguments
	strace -e trace=writev,readv,sendmsg,recvmsg -e signal=none -e read=all -e write=all \
		-o "$TMP/v.a" $cmd
	# shellcheck disable=SC2086
	"$SONDE" strace -e trace=writev,readv,sendmsg,recvmsg -e signal=none -e read=all -e write=all \
		-o "$TMP/v.b" $cmd
	sed -i -E 's/0x[0-9a-f]+/ADDR/g' "$TMP/v.a" "$TMP/v.b"
	same "strace_compat: -e read=all -e write=all of vectors ($(basename "${cmd%% *}")) as strace" \
		"$TMP/v.a" "$TMP/v.b"
done
check "strace_compat: a vector's dump names its buffers" grep -qx ' \* 1 bytes in buffer 1' "$TMP/v.b"
# sendmmsg and recvmmsg: " = N buffers in vector I" per message, then its
# buffers up to its msg_len; a parent and its child, file by file (with
# clone, whose line starts the parent's file: tasks are ordered by their
# first line).
echo data > "$TMP/scm.txt"
ff_run -e trace=clone,sendmsg,recvmsg,sendmmsg,recvmmsg -e read=all -e write=all "$FIX/fd_scm" \
	"$TMP/scm.txt"
# (the UDP sockets' ports are the kernel's choice, run by run)
ff_norm "$TMP/a" | sed -E 's/htons\([0-9]+\)/htons(P)/g' > "$TMP/a.n"
ff_norm "$TMP/b" | sed -E 's/htons\([0-9]+\)/htons(P)/g' > "$TMP/b.n"
same "strace_compat: -e read=all -e write=all of sendmmsg and recvmmsg (fd_scm -ff) as strace" \
	"$TMP/a.n" "$TMP/b.n"
check "strace_compat: a message's dump names its vector" grep -q '^ = 1 buffers in vector 0$' "$TMP/b.n"
