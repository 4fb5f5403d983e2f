#!/usr/bin/env bash
# Golden tests for the sonde language, in the manner of dtrace-utils:
# tests/lang/tst.NAME.d must succeed and print tests/lang/tst.NAME.r;
# tests/lang/err.NAME.d must fail and print exactly tests/lang/err.NAME.r
# on stderr. Directives in comments:
#   @@cmd CMD     run with -c CMD (CMD resolved in the fixtures directory)
#   @@args A...   macro arguments $1...
#   @@opts O...   extra options (--json, -x name=value)
#   @@norm SED    sed expression applied to the output before comparing
#   @@sort        sort the output (records from several CPUs)
#   @@stderr      (tst.*) append "-- @@stderr --" and stderr to the output,
#                 as dtrace-utils does, to assert runtime error messages
# FIX in a script is replaced by the fixtures directory.
# SONDE_LANG_UPDATE=1 rewrites the .r files (review the diff!).
source "$(dirname "$0")/lib.sh"
need_root

dir=tests/lang
directive() { sed -n "s/^.*@@$1 \(.*\) \*\/.*$/\1/p" "$2" | head -1; }

run_case() { # file -> sets out, err, rc
	local f=$1 cmd args opts script
	cmd=$(directive cmd "$f")
	args=$(directive args "$f")
	opts=$(directive opts "$f")
	script=$TMP/$(basename "$f")
	sed "s|FIX/|$FIX/|g" "$f" > "$script"
	local c=()
	[ -n "$cmd" ] && c=(-c "$FIX/$cmd")
	# shellcheck disable=SC2086
	timeout 60 "$SONDE" script $opts "${c[@]}" -s "$script" $args \
		> "$TMP/out" 2> "$TMP/err"
	rc=$?
	sed -i "s|$script|$(basename "$f")|g" "$TMP/err"
	# @@sort: output from several CPUs has no defined order
	if grep -q '@@sort' "$f"; then
		sort -o "$TMP/out" "$TMP/out"
	fi
	if grep -q '@@stderr' "$f" && [[ $f == */tst.* ]]; then
		printf '%s\n' '-- @@stderr --' >> "$TMP/out"
		cat "$TMP/err" >> "$TMP/out"
	fi
}

compare() { # name expected actual
	local norm
	norm=$(directive norm "$4")
	if [ -n "$norm" ]; then
		sed -i -E "$norm" "$3"
	fi
	if [ "${SONDE_LANG_UPDATE:-0}" = 1 ]; then
		cp "$3" "$2"
	fi
	if diff -u "$2" "$3" > "$TMP/diff"; then
		ok "lang/$1"
	else
		notok "lang/$1"
		sed 's/^/    /' "$TMP/diff" | head -30
	fi
}

for f in "$dir"/tst.*.d; do
	name=$(basename "$f" .d)
	run_case "$f"
	if [ "$rc" -ne 0 ]; then
		notok "lang/$name (exit $rc)"
		sed 's/^/    /' "$TMP/err" | head -10
		continue
	fi
	compare "$name" "$dir/$name.r" "$TMP/out" "$f"
done

for f in "$dir"/err.*.d; do
	name=$(basename "$f" .d)
	run_case "$f"
	if [ "$rc" -eq 0 ]; then
		notok "lang/$name (succeeded, expected an error)"
		continue
	fi
	compare "$name" "$dir/$name.r" "$TMP/err" "$f"
done

# A #! script runs directly.
sed "1s|.*|#!/usr/bin/env -S $SONDE script -s|" "$dir/tst.shebang.d" > "$TMP/sb.d"
chmod +x "$TMP/sb.d"
check "lang/shebang-exec" grep -qx "shebang ok" <("$TMP/sb.d")

# -l lists matching probes; -S dumps every stage.
check "lang/list" bash -c "'$SONDE' script -l 'syscall::read*:entry' | grep -q '^syscall *vmlinux *readv *entry'"
check "lang/dump" bash -c "'$SONDE' script -S 'BEGIN { @[1] = count(); }' | grep -c '^-- ' | grep -qx 5"
check "lang/dump-annotated" bash -c "'$SONDE' script -S 'BEGIN { x = pid + 2; }' | grep -q '; 1:13'"
check "lang/verbose-log" bash -c "'$SONDE' script -v -s $dir/err.verifier.d 2>&1 | grep -q 'processed'"

# -l honours -c as -p: pid$target probes of the command are listed.
check "lang/list-cmd" bash -c "'$SONDE' script -l -c '$FIX/lang_work 1' 'pid\$target:a.out:lang_work_fn:entry' | grep -q '^pid[0-9]* *a.out *lang_work_fn *entry'"
# -c with a command that cannot run: the status of a shell, nothing traced.
"$SONDE" script -c /etc/passwd 'BEGIN { printf("ran\n"); }' > "$TMP/noexec.out" 2> "$TMP/noexec.err"
check "lang/cmd-not-executable" bash -c "[ $? = 126 ] && [ ! -s '$TMP/noexec.out' ] && grep -qx 'sonde script: -c: /etc/passwd: Permission denied' '$TMP/noexec.err'"
# -s of a directory cannot be read (EISDIR), as a missing file cannot.
"$SONDE" script -s "$TMP" > /dev/null 2> "$TMP/dir.err"
check "lang/script-directory" bash -c "[ $? = 2 ] && grep -qx 'sonde script: cannot read $TMP: Is a directory' '$TMP/dir.err'"
# -o writes to a file.
"$SONDE" script -q -o "$TMP/o.txt" 'BEGIN { printf("to file\n"); exit(0); }'
check "lang/output-file" grep -qx "to file" "$TMP/o.txt"

# -p traces a running process until it exits.
"$FIX/lang_work" 2 & sleep_pid=$!
# the fixture is quick; a sleeping target shows -p ends with the process
sleep 2 & sp=$!
out=$("$SONDE" script -q -p $sp 'tick-100ms { n++; } END { printf("%d\n", n > 0); }')
check "lang/pid-option" test "$out" = 1
wait $sleep_pid 2>/dev/null

# Live and offline runs of the same workload agree on keys and counts.
script='syscall:::entry /execname == "lang_work"/ { @[probefunc] = count(); }
proc:::exec-success /execname == "lang_work"/ { @e = count(); }'
"$SONDE" record -q -o "$TMP/w.sonde" -- "$FIX/lang_work" 7 nofork > /dev/null 2>&1
"$SONDE" script -r "$TMP/w.sonde" "$script" | sort > "$TMP/off"
"$SONDE" script -c "$FIX/lang_work 7 nofork" "$script" | sort > "$TMP/live"
if [ -s "$TMP/off" ] && diff "$TMP/off" "$TMP/live" > "$TMP/diff"; then
	ok "lang/offline-matches-live"
else
	notok "lang/offline-matches-live"
	sed 's/^/    /' "$TMP/diff" | head -20
fi
# proc:::signal-send offline fires from the trace's signal records in the
# sender's context, as live. The fixture's default mode sends SIGCHLD
# (child exits), SIGTERM (parent kills child), SIGCHLD (child dies); key
# args[1] == pid (target pid, DTrace's psinfo_t *) is 0 when the sender,
# not the target, is current; args[0] is the target thread, args[2] the
# signal, as in DTrace. Live
# also sees the traced root's SIGCHLD to sonde itself, which is no traced
# task's and so not recorded: $1 is sonde's pid live (exec keeps it).
script='proc:::signal-send /execname == "lang_work" && args[1] != $1/ { @[execname, args[2], args[1] == pid, args[0] == args[1]] = count(); }'
"$SONDE" record -q -o "$TMP/sig.sonde" -- "$FIX/lang_work" 3 > /dev/null 2>&1
"$SONDE" script -r "$TMP/sig.sonde" "$script" 0 | sort > "$TMP/sigoff"
bash -c 'exec "$0" script -c "$1 3" "$2" $$' "$SONDE" "$FIX/lang_work" "$script" | sort > "$TMP/siglive"
if grep -q ' 15 .* 0 .* 1 .* 1$' "$TMP/sigoff" && grep -q ' 17 .* 0 .* 1 .* 2$' "$TMP/sigoff" &&
	diff "$TMP/sigoff" "$TMP/siglive" > "$TMP/sigdiff"; then
	ok "lang/offline-signal-send-matches-live"
else
	notok "lang/offline-signal-send-matches-live"
	sed 's/^/    /' "$TMP/sigdiff" "$TMP/sigoff" 2>/dev/null | head -20
fi
check "lang/offline-rejects-profile" bash -c "! '$SONDE' script -r '$TMP/w.sonde' 'profile-99 { x = 1; }' 2>/dev/null"
# Offline, variables wrap to their type and constant conditions fold as live.
check "lang/offline-var-width" bash -c "'$SONDE' script -r '$TMP/w.sonde' -s tests/lang/tst.var_width.d | cmp -s - tests/lang/tst.var_width.r"
check "lang/offline-const-cond" bash -c "'$SONDE' script -r '$TMP/w.sonde' -s tests/lang/tst.const_cond.d 0 | cmp -s - tests/lang/tst.const_cond.r"
# Built-ins a trace does not hold are refused offline, with the reason.
"$SONDE" script -r "$TMP/w.sonde" 'BEGIN { x = uid; }' > /dev/null 2> "$TMP/uid.err"
check "lang/offline-rejects-uid" grep -qx "sonde script: <program>:1:13: uid is not recorded in traces: it cannot be used with -r (run the script live)" "$TMP/uid.err"
# User memory is not in a trace: copyinstr() is "" offline, not a fault.
"$SONDE" script -q -r "$TMP/w.sonde" 'syscall::openat:entry { printf("[%s]\n", copyinstr(arg1)); }' > "$TMP/ci.out" 2> "$TMP/ci.err"
check "lang/offline-copyinstr-empty" bash -c "[ -s '$TMP/ci.out' ] && ! grep -qv '^\[\]$' '$TMP/ci.out' && [ ! -s '$TMP/ci.err' ]"
# stack() frames are kernel symbols, module`function+0xoff as in DTrace.
check "lang/kstack-symbols" bash -c "'$SONDE' script -q -c '$FIX/lang_work 1' 'syscall::write:entry /pid == \$target/ { stack(); }' | grep -q '^ *vmlinux\`[a-z_0-9]*+0x[0-9a-f]*\$'"
