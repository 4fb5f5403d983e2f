#!/usr/bin/env bash
# sonde record: exit statuses and error messages (command not found, not
# executable, not root, bad options, no such PID).
. "$(dirname "$0")/lib.sh"
need_root

"$SONDE" record -o "$TMP/nf.trace" -- sonde-no-such-command-xyz 2> "$TMP/nf.err"
st=$?
check "status: missing command gives 127" [ "$st" -eq 127 ]
check "status: missing command gives the shell's message" \
	grep -qx 'sonde record: sonde-no-such-command-xyz: command not found' "$TMP/nf.err"
check "status: missing command leaves no trace file" [ ! -e "$TMP/nf.trace" ]

printf 'not a program\n' > "$TMP/noexec"
chmod 644 "$TMP/noexec"
"$SONDE" record -o "$TMP/ne.trace" -- "$TMP/noexec" 2> "$TMP/ne.err"
st=$?
check "status: non-executable command gives 126" [ "$st" -eq 126 ]
check "status: non-executable command says why" grep -q 'Permission denied' "$TMP/ne.err"

# execve fails after the command was released (found and executable, but
# its #! interpreter is missing): 127 and the reason, even with -q.
printf '#!/nonexistent/interp\n' > "$TMP/badinterp"
chmod 755 "$TMP/badinterp"
"$SONDE" record -q -o "$TMP/bi.trace" -- "$TMP/badinterp" 2> "$TMP/bi.err"
st=$?
check "status: a missing interpreter gives 127" [ "$st" -eq 127 ]
check "status: ... and says why, also with -q" \
	grep -qx "sonde record: $TMP/badinterp: No such file or directory" "$TMP/bi.err"

"$SONDE" record -q -o "$TMP/ok.trace" -- sh -c 'exit 42'
check "status: exit status 42 propagated" [ $? -eq 42 ]

# Without privileges: a copy of the binary nobody can run, no capabilities.
if command -v setpriv > /dev/null; then
	d=$(mktemp -d /tmp/sonde-np.XXXXXX)
	chmod 755 "$d"
	cp "$SONDE" "$d/sonde"
	(cd "$d" && setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		./sonde record -o "$d/x.trace" -- true) 2> "$TMP/np.err"
	st=$?
	check "status: not root fails with status 1" [ "$st" -eq 1 ]
	check "status: not root names the privileges needed" \
		grep -q 'needs root (CAP_BPF and CAP_PERFMON) to load BPF programs; run with sudo' \
		"$TMP/np.err"
	rm -rf "$d"
else
	notok "status: setpriv (util-linux) is needed for the not-root test"
fi

"$SONDE" record 2> "$TMP/none.err"
check "status: nothing to trace is a usage error (2)" [ $? -eq 2 ]
check "status: nothing to trace says what to give" grep -q 'nothing to trace' "$TMP/none.err"
"$SONDE" record --ring-size 3000 -- true 2> "$TMP/ring.err"
check "status: bad --ring-size rejected (2)" [ $? -eq 2 ]
# A ring's size is a u32 power of two: 4G cannot be made.
"$SONDE" record --ring-size 4G -- true 2> "$TMP/ring4g.err"
check_all "status: --ring-size 4G refused (2), the limit named" \
	[ $? -eq 2 ] '&&' grep -q 'from 4K to 2G' "$TMP/ring4g.err"
# A long option without its argument is named as typed.
for c in print stat; do
	"$SONDE" $c --since 2> "$TMP/since.err"
	check_all "status: $c --since without a value: named, status 2" \
		[ $? -eq 2 ] '&&' grep -qx "sonde $c: option --since needs an argument" "$TMP/since.err"
done
# Every subcommand names a bad option the same way, with status 2.
for c in record print stat strace script; do
	"$SONDE" $c --bogus 2> "$TMP/bogus.err"
	check_all "status: $c --bogus: named, help pointed to, status 2" \
		[ $? -eq 2 ] '&&' grep -qx "sonde $c: unknown option '--bogus'; 'sonde help $c' lists them" "$TMP/bogus.err"
	"$SONDE" $c -Q 2> "$TMP/k.err"
	check_all "status: $c -Q: named, status 2" \
		[ $? -eq 2 ] '&&' grep -qx "sonde $c: unknown option -Q; 'sonde help $c' lists them" "$TMP/k.err"
done
for c in "record -o" "strace -o" "script -s"; do
	"$SONDE" $c 2> "$TMP/noarg.err"
	check_all "status: $c without its value: named, status 2" \
		[ $? -eq 2 ] '&&' grep -qx "sonde ${c% *}: option ${c#* } needs an argument" "$TMP/noarg.err"
done
for b in 0 1G -8M 12Q; do
	"$SONDE" record --buffer-size "$b" -- true 2> "$TMP/buf.err"
	check "status: bad --buffer-size $b rejected (2)" [ $? -eq 2 ]
done
check "status: bad --buffer-size says the range" grep -q 'from 1 to 512M' "$TMP/buf.err"

# --buffer-size: the chunk buffers are resident before the command runs
# (the command reads its parent's, the recorder's, anonymous RSS).
rss_anon() {
	"$SONDE" record -q -o "$TMP/rss.trace" "$@" -- \
		sh -c 'awk "/^RssAnon/ { print \$2 }" /proc/$PPID/status' 2> /dev/null
}
r0=$(rss_anon -s 0)
r1=$(rss_anon --buffer-size 200M)
# -s 0: two 8 MiB chunks per CPU, plus the process itself (ASan's shadow
# memory included: ~60 MB on 2 CPUs).
lim=$(( ($(nproc) * 16 + 80) * 1024 ))
check "status: -s 0 keeps two chunk buffers per CPU (RssAnon ${r0:-?} kB < $lim kB)" \
	[ "${r0:-0}" -gt 0 -a "${r0:-0}" -lt "$lim" ]
check "status: --buffer-size 200M is resident at start (RssAnon ${r1:-?} kB)" \
	[ "${r1:-0}" -ge 204800 ]
# Default rings: 16M per CPU for metadata only, 64M with payloads.
ring_of() {
	"$SONDE" record --json -o "$TMP/ring.trace" "$@" -- true 2>&1 |
		sed -n 's/.*"ring_bytes":\([0-9]*\).*/\1/p'
}
check "status: default ring with -s 0 is 16M" [ "$(ring_of -s 0)" = 16777216 ]
check "status: default ring with payloads is 64M" [ "$(ring_of)" = 67108864 ]
check "status: --ring-size overrides the default" [ "$(ring_of -s 0 --ring-size 8M)" = 8388608 ]
"$SONDE" record -e trace=no_such_syscall -- true 2> "$TMP/e.err"
check "status: bad -e trace= rejected (2)" [ $? -eq 2 ]
check "status: bad -e trace= names the token" grep -q 'no_such_syscall' "$TMP/e.err"
"$SONDE" record -o "$TMP/p.trace" -p 4194303 2> "$TMP/p.err"
check "status: -p of a missing process fails (1)" [ $? -eq 1 ]
check "status: -p of a missing process says so" grep -q 'no process with PID 4194303' "$TMP/p.err"
check "status: -p of a missing process leaves no trace file" [ ! -e "$TMP/p.trace" ]
"$SONDE" record -q -o /nonexistent-dir/x.trace -- true 2> "$TMP/o.err"
check "status: unwritable output fails (1)" [ $? -eq 1 ]
check "status: unwritable output names the file" grep -q '/nonexistent-dir/x.trace' "$TMP/o.err"
exit 0
