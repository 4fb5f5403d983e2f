#!/usr/bin/env bash
# strace's options in every output of sonde print and sonde strace --json:
# -X raw|abbrev|verbose and -x/-xx in print's text; print --strace takes
# -s -v -X -x -y -t.. -r -T -e read=/write= and prints what sonde strace
# printed live with the same options, -y with -e trace= hiding the calls
# that opened the descriptors; sonde strace --json -s and -e trace=;
# options that do not apply are refused.
. "$(dirname "$0")/lib.sh"
need_root

printf 'abc\001\002' > "$TMP/bin.dat"
# (a pipe: cat copies file to file with copy_file_range, not read/write)
cmd=(sh -c "cat '$TMP/bin.dat' | cat > '$TMP/out.dat'; cat /etc/hostname")
T=$TMP/t.sonde
opts=(-X raw -s 4 -xx -v -T)
(cd "$TMP" && $SONDE strace -f "${opts[@]}" -o "$TMP/live.txt" --trace-file "$T" \
	"${cmd[@]}" > /dev/null)
check "print_opts: sonde strace -X raw -s 4 -xx -v -T exits 0" [ $? = 0 ]

# --- print --strace with strace's options ---------------------------------
$SONDE print --strace "${opts[@]}" "$T" > "$TMP/off.txt"
check "print_opts: print --strace ${opts[*]} prints what sonde strace printed" \
	cmp -s "$TMP/live.txt" "$TMP/off.txt"
check "print_opts: ... -X raw: AT_FDCWD and flags as numbers" \
	grep -qE '^[0-9]+ +openat\(-100, "\\x2f\\x65\\x74\\x63\\x2f\\x68\\x6f\\x73\\x74\\x6e\\x61\\x6d\\x65", 0\) += 3 <[0-9.]+>$' "$TMP/off.txt"
$SONDE print --strace -y -e trace=read "$T" > "$TMP/y0.txt"
strace_joined "$TMP/y0.txt" > "$TMP/y.txt"
check "print_opts: print --strace -y: a read's descriptor has the path its hidden open gave" \
	grep -qE "^[0-9]+ +read\(3<$TMP/bin.dat>, \"abc\\\\1\\\\2\", [0-9]+\) += 5$" "$TMP/y.txt"
check "print_opts: print --strace -e trace=read shows reads only" \
	bash -c "! grep -vE '^[0-9]+ +(read\(|\+\+\+ |--- SIG)' '$TMP/y.txt'"
$SONDE print --strace -ttt -e trace=close "$T" > "$TMP/t3.txt"
check "print_opts: print --strace -ttt: epoch seconds" \
	grep -qE '^[0-9]+ +[0-9]{10}\.[0-9]{6} close\(3\) += 0$' "$TMP/t3.txt"
$SONDE print --strace -r -e trace=close "$T" > "$TMP/r.txt"
check "print_opts: print --strace -r: relative times" \
	grep -qE '^[0-9]+ +0\.[0-9]{6} close\(3\) += 0$' "$TMP/r.txt"

# -e read=FD / -e write=FD (and strace's aliases r=, writes=): the
# hexdumps sonde strace printed live, which are strace's (strace_payload.sh
# and strace_longopts.sh check them against strace).
$SONDE strace -f -e read=3 -e write=1 -o "$TMP/dl.txt" --trace-file "$TMP/d.sonde" \
	cat "$TMP/bin.dat" > /dev/null
$SONDE print --strace -e read=3 -e write=1 "$TMP/d.sonde" > "$TMP/d1.txt"
$SONDE print --strace -e r=3 -e writes=1 "$TMP/d.sonde" > "$TMP/d2.txt"
check_all "print_opts: print --strace -e read=3 -e write=1 hexdumps as sonde strace did" \
	cmp -s "$TMP/dl.txt" "$TMP/d1.txt" '&&' cmp -s "$TMP/d1.txt" "$TMP/d2.txt" '&&' \
	grep -q '^ | 00000  61 62 63 01 02  .*abc\.\. ' "$TMP/d1.txt"
check "print_opts: ... the read and the write of the same bytes, each dumped" \
	[ "$(grep -c '^ | 00000  61 62 63 01 02' "$TMP/d1.txt")" = 2 ]
$SONDE print -e read=3 "$TMP/d.sonde" > /dev/null 2> "$TMP/dr.err"
check_all "print_opts: -e read= without --strace is refused with the reason" \
	[ $? != 0 ] '&&' grep -q 'is for --strace' "$TMP/dr.err"

# -Y offline: the names come from the trace (forks, execs, renames, the
# calls that reap), so print --strace -Y prints what sonde strace -Y
# printed live, which strace_exact.sh holds against strace's; the
# recorder, the command's parent, is named from the trace too.
(cd "$TMP" && $SONDE strace -f -Y -o "$TMP/yl.txt" --trace-file "$TMP/y.sonde" \
	"$FIX/strace_x_pids" names > /dev/null)
$SONDE print --strace -Y "$TMP/y.sonde" > "$TMP/yo.txt"
check "print_opts: print --strace -Y prints what sonde strace -Y printed" \
	cmp -s "$TMP/yl.txt" "$TMP/yo.txt"
check "print_opts: ... -Y: the renamed task's prefix and result, escaped as strace" \
	grep -qE '^[0-9]+<odd\\74na\\76me\\t> getpid\(\) += [0-9]+<odd\\74na\\76me\\t>$' "$TMP/yo.txt"
check "print_opts: ... -Y: the command's parent is the recorder" \
	grep -qE '^[0-9]+<pids-names> getppid\(\) += [0-9]+<sonde>$' "$TMP/yo.txt"
$SONDE print -Y "$T" > /dev/null 2> "$TMP/yerr.txt"
check "print_opts: print -Y without --strace is refused" \
	grep -q -- "-Y is for --strace" "$TMP/yerr.txt"

# --- print's text: -X, -x, -y ------------------------------------------------
$SONDE print -X verbose -e trace=openat "$T" > "$TMP/xv.txt"
check "print_opts: print -X verbose: numbers and names" \
	grep -qE '^\[pid +[0-9]+\] openat\(-100 /\* AT_FDCWD \*/, "/etc/hostname", 0 /\* O_RDONLY \*/\) += 3 <' "$TMP/xv.txt"
$SONDE print -X raw -e trace=openat "$T" > "$TMP/xr.txt"
check "print_opts: print -X raw: numbers" \
	grep -qE '^\[pid +[0-9]+\] openat\(-100, "/etc/hostname", 0\) += 3 <' "$TMP/xr.txt"
$SONDE print -x -e trace=write "$T" > "$TMP/x.txt"
check "print_opts: print -x: a string with non-ASCII bytes in hex" \
	grep -qE '^\[pid +[0-9]+\] write\(1, "\\x61\\x62\\x63\\x01\\x02", 5\) += 5 <' "$TMP/x.txt"
# -y/-yy in print's text: the descriptors strace -y shows, from the same
# tables as print --strace -y (every decoded call the same, once the
# line formats are set aside: prefix, duration, split halves, order).
$SONDE print -y -e trace=read "$T" > "$TMP/ty.txt"
check "print_opts: print -y: a read's descriptor has the path its hidden open gave" \
	grep -qE "^\[pid +[0-9]+\] read\(3<$TMP/bin.dat>, \"abc\\\\1\\\\2\", [0-9]+\) += 5 <" "$TMP/ty.txt"
$SONDE print -yy --no-dur "$T" > "$TMP/tyy.txt"
check "print_opts: print -yy: openat returns 3</etc/hostname>" \
	grep -qE '^\[pid +[0-9]+\] openat\(AT_FDCWD<[^>]*>, "/etc/hostname", O_RDONLY\) += 3</etc/hostname>$' "$TMP/tyy.txt"
check "print_opts: print -yy: the shell's pipe named by its inode" \
	grep -qE '^\[pid +[0-9]+\] pipe2?\(\[3<pipe:\[[0-9]+\]>, 4<pipe:\[[0-9]+\]>\]' "$TMP/tyy.txt"
sed -nE 's/^\[pid +([0-9]+)\] ([a-z_0-9]+\(.*)$/\1 \2/p' "$TMP/tyy.txt" | sed -E 's/ += / = /' | sort > "$TMP/tyy.calls"
$SONDE print --strace -yy "$T" > "$TMP/syy.txt"
strace_joined "$TMP/syy.txt" | grep -vE '^[0-9]+ (\+\+\+|---) ' | sort > "$TMP/syy.calls"
check "print_opts: print -yy shows every call as print --strace -yy" \
	cmp -s "$TMP/tyy.calls" "$TMP/syy.calls"
# JSON too: the calls -e trace= hides still name descriptors.
$SONDE print --json -y -e trace=read "$T" > "$TMP/jy.json"
check "print_opts: print --json -y -e trace=read: the read's fd_paths from its hidden open" \
	grep -qF "\"fd_paths\":{\"3\":\"$TMP/bin.dat\"}" "$TMP/jy.json"
(cd "$TMP" && $SONDE strace -f --json -y -e trace=read -o "$TMP/ljy.json" "${cmd[@]}" > /dev/null)
check "print_opts: sonde strace --json -y -e trace=read: the same, live" \
	grep -qF "\"fd_paths\":{\"3\":\"$TMP/bin.dat\"}" "$TMP/ljy.json"
$SONDE print --format=flight -y "$T" > /dev/null 2> "$TMP/e4"
check "print_opts: print --format=flight -y is refused" \
	bash -c "[ $? = 2 ] && grep -q -- '-y needs text, --strace or --json' '$TMP/e4'"

# --- sonde strace --json: -s and -e trace= ------------------------------
$SONDE strace -f --json -s 3 -e trace=read,write -o "$TMP/s.json" "${cmd[@]}" > /dev/null
check "print_opts: sonde strace --json -s 3 -e trace=read,write" \
	python3 - "$TMP/s.json" <<'PY'
import json, sys
sc = [e for e in map(json.loads, open(sys.argv[1])) if e["type"] == "syscall"]
assert {e["name"] for e in sc} == {"read", "write"}, {e["name"] for e in sc}
rd = [e for e in sc if e["name"] == "read" and e["ret"] == 5]
assert rd and rd[0]["argv"]["buf"] == {"data": "abc", "truncated": True, "length": 5}, rd[:1]
assert all(isinstance(e["argv"]["buf"], str) for e in sc if 0 <= e["ret"] <= 3)
PY

# -X raw keeps errno names, as strace 6.1 does.
if command -v strace > /dev/null; then
	strace -X raw -o "$TMP/xs.txt" cat /nonexistent 2> /dev/null
	$SONDE strace -X raw -o "$TMP/xo.txt" cat /nonexistent 2> /dev/null
	check "print_opts: -X raw: the failed openat as strace -X raw prints it" \
		cmp -s <(grep '^openat.*"/nonexistent"' "$TMP/xs.txt") <(grep '^openat.*"/nonexistent"' "$TMP/xo.txt")
fi

# --- refused ------------------------------------------------------------------
$SONDE print --strace --relative "$T" > /dev/null 2> "$TMP/e1"
check "print_opts: --strace --relative is refused (exit 2, says why)" \
	bash -c "[ $? = 2 ] && grep -q 'does not apply to --strace' '$TMP/e1'"
$SONDE print -T "$T" > /dev/null 2> "$TMP/e2"
check "print_opts: -T without --strace is refused" \
	bash -c "[ $? = 2 ] && grep -q -- '-T is for --strace' '$TMP/e2'"
$SONDE print -X bogus "$T" > /dev/null 2> "$TMP/e3"
check "print_opts: -X bogus is refused" bash -c "[ $? = 2 ] && [ -s '$TMP/e3' ]"

# -v on a terminal: termios in full, as strace -v (stty on a pty from script).
if command -v strace > /dev/null && command -v script > /dev/null; then
	script -qc "strace -v -e trace=ioctl -o '$TMP/tty.ref' stty size" /dev/null > /dev/null 2>&1
	script -qc "$SONDE strace -v -e trace=ioctl -o '$TMP/tty.out' stty size" /dev/null > /dev/null 2>&1
	check "print_opts: -v on a pty: the ioctls as strace -v prints them (c_cc by name)" \
		bash -c "grep -q 'c_cc=\[\[VINTR\]=' '$TMP/tty.out' && cmp -s '$TMP/tty.ref' '$TMP/tty.out'"
fi

# -y resolves symbolic links as strace's /proc/PID/fd does (merged /usr:
# /lib is a link), live and for a trace recorded on this host; pipes are
# named by their inode.
if [ -L /lib ]; then
	real=$(realpath /lib/x86_64-linux-gnu/libc.so.6)
	$SONDE strace -y -e trace=openat -o "$TMP/l.txt" --trace-file "$TMP/l.sonde" true
	check "print_opts: sonde strace -y: links resolved ($real)" \
		grep -qF "= 3<$real>" "$TMP/l.txt"
	$SONDE print --strace -y -e trace=openat "$TMP/l.sonde" > "$TMP/l2.txt"
	check "print_opts: print --strace -y of a trace recorded here: links resolved too" \
		grep -qF "= 3<$real>" "$TMP/l2.txt"
fi
$SONDE strace -y -e trace=pipe2 -o "$TMP/p.txt" python3 -S -c 'import os; os.pipe()'
check "print_opts: -y: pipe2's descriptors decorated" \
	grep -qE '^pipe2\(\[[0-9]+<pipe:\[[0-9]+\]>, [0-9]+<pipe:\[[0-9]+\]>\], O_CLOEXEC\) += 0$' "$TMP/p.txt"

# -e status= and --decode-fds, offline as live: the same calls, the same
# decorations; print's text and stat take -e status= as a filter.
$SONDE strace -f -e status='failed,unfinished' --decode-fds=dev -o "$TMP/sd.live" \
	--trace-file "$TMP/sd.sonde" sh -c 'exec 3</dev/null; ls /nonexistent; true <&3' \
	> /dev/null 2>&1
$SONDE print --strace -e status='failed,unfinished' --decode-fds=dev "$TMP/sd.sonde" > "$TMP/sd.off"
check_all "print_opts: print --strace -e status= --decode-fds= prints what sonde strace printed" \
	cmp -s "$TMP/sd.live" "$TMP/sd.off" '&&' \
	grep -q '</dev/null<char 1:3>>' "$TMP/sd.off" '&&' \
	grep -q 'exit_group(' "$TMP/sd.off" '&&' \
	bash -c "! grep -qE ') += [0-9]' '$TMP/sd.off'"
$SONDE stat -e status=failed "$TMP/sd.sonde" > "$TMP/sd.stat"
check "print_opts: stat -e status=failed counts failed calls only" \
	bash -c "awk '\$1 ~ /^[0-9.]+$/ && \$NF != \"total\" { n++; if (\$5 != \$6) bad = 1 } END { exit bad || !n }' '$TMP/sd.stat'"
$SONDE print -y --decode-fds=dev "$TMP/sd.sonde" > /dev/null 2> "$TMP/yd.err"
check_all "print_opts: -y with --decode-fds is refused, as strace refuses it" \
	[ $? = 2 ] '&&' grep -q 'cannot be given together' "$TMP/yd.err"

# -o naming the trace being read is refused, and the trace stays whole.
cp "$T" "$TMP/keep.sonde"
for c in print stat; do
	$SONDE $c -o "$T" "$T" > /dev/null 2> "$TMP/same.err"
	r=$?
	check_all "print_opts: $c -o TRACE TRACE is refused, the trace intact" \
		[ $r != 0 ] '&&' \
		grep -q 'the trace being read' "$TMP/same.err" '&&' \
		cmp -s "$T" "$TMP/keep.sonde"
done
