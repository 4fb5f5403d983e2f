#!/usr/bin/env bash
# sonde strace -f with the output on standard error, against Debian's
# strace 6.1: "[pid N] " starts a line only while more than one task is
# traced (from the first fork until the others have exited), and each new
# process or thread is announced, "Process N attached", once the call
# that made it has returned (src/decode/strace/attach.c). The
# differential suite compares -o files, where every line has its pid.
. "$(dirname "$0")/lib.sh"
need_root
need_strace
pid_headroom

# strace prints the announcement when the new task first stops, which
# can be in the middle of its parent's clone line: put it after the line,
# as sonde does. Then pids, addresses and times go.
norm() {
	python3 -c '
import re, sys
text = sys.stdin.read()
text = re.sub(r"^(?!(?:sonde )?strace: )(.+?)(?:sonde )?strace: (Process \d+ attached)\n(.*)$",
              r"\1\3\nsonde strace: \2", text, flags=re.M)
text = re.sub(r"^strace: ", "sonde strace: ", text, flags=re.M)
text = re.sub(r"\[pid +\d+\]", "[pid P]", text)
text = re.sub(r"0x[0-9a-f]{6,}", "ADDR", text)
text = re.sub(r"\b\d{3,}\b", "N", text)
text = re.sub(r"\) +=", ") =", text)
text = re.sub(r"(si_[us]time)=\d+", r"\1=T", text)
sys.stdout.write(text)'
}

# compare NAME STRACE-ARGS...: the program's own output is dropped.
# Where strace hears of a new task is a race of its own (before or after
# the parent's next call entered): sonde's output must be one of strace's,
# in up to 5 runs.
compare() {
	local name=$1 i
	shift
	"$SONDE" strace "$@" 2>&1 > /dev/null | norm > "$TMP/b"
	for i in 1 2 3 4 5; do
		strace "$@" 2>&1 > /dev/null | norm > "$TMP/a"
		cmp -s "$TMP/a" "$TMP/b" && break
	done
	same "strace_attach: $name as strace" "$TMP/a" "$TMP/b"
}
# has NAME REGEX: the normalised sonde output matches REGEX (Python's,
# across lines).
has() {
	check "strace_attach: $1" python3 -c '
import re, sys
sys.exit(not re.search(sys.argv[1], open(sys.argv[2]).read(), re.M))' "$2" "$TMP/b"
}

compare "-f, a thread and a child (strace_stack)" -f -e trace=clone,clone3,exit,exit_group,wait4 \
	"$FIX/strace_stack"
check "strace_attach: the thread and the child are announced" \
	test "$(grep -c '^sonde strace: Process N attached$' "$TMP/b")" -eq 2
check "strace_attach: no prefix after the others have exited" \
	test "$(tail -n 2 "$TMP/b" | head -n 1)" = "exit_group(3) = ?"
compare "-f, a shell's children, clone not shown" -f -e trace=write,exit_group \
	sh -c 'echo a; (echo b) & wait; echo c; /bin/echo d'
has "the children's lines have the prefix, the parent's after them not" \
	'^\[pid P\] write\(1, "b\\n", 2\) = 2\n\[pid P\] exit_group\(0\) = \?\n\[pid P\] \+\+\+ exited with 0 \+\+\+\n--- SIGCHLD .*\nwrite\(1, "c\\n", 2\) = 2\n'
has "a new task is announced before its first line" \
	'^sonde strace: Process N attached\n\[pid P\] write\(1, "b\\n"'

compare "-f -qq (no exit lines, announcements all the same)" -f -qq -e trace=exit_group \
	sh -c '(exit 0) & wait'
compare "-f -q (no announcements)" -f -q -e trace=write sh -c '(echo b) & wait'
check "strace_attach: -q: no announcement" sh -c "! grep -q attached '$TMP/b'"

# -D: the command itself is announced first, with or without -f.
compare "-D" -D -e trace=exit_group true
check "strace_attach: -D: the command is announced" \
	test "$(head -n 1 "$TMP/b")" = "sonde strace: Process N attached"
compare "-D -f" -D -f -e trace=exit_group sh -c '(exit 0) & wait'
