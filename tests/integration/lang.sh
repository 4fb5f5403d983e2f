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

# -o writes to a file.
"$SONDE" script -o "$TMP/o.txt" 'BEGIN { printf("to file\n"); exit(0); }'
check "lang/output-file" grep -qx "to file" "$TMP/o.txt"

# -p traces a running process until it exits.
"$FIX/lang_work" 2 & sleep_pid=$!
# the fixture is quick; a sleeping target shows -p ends with the process
sleep 2 & sp=$!
out=$("$SONDE" script -p $sp 'tick-100ms { n++; } END { printf("%d\n", n > 0); }')
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
check "lang/offline-rejects-profile" bash -c "! '$SONDE' script -r '$TMP/w.sonde' 'profile-99 { x = 1; }' 2>/dev/null"
