#!/usr/bin/env bash
# strace 6.1's long options in `sonde strace`: the aliases of letters
# (--attach, --columns, --string-limit, --no-abbrev, --const-print-style,
# --abbrev, --verbose, --read, --write, --output-append-mode) and those of
# their own: --absolute-timestamps, --relative-timestamps and
# --syscall-times with their formats and precisions, --strings-in-hex,
# --instruction-pointer.
# Each line format is checked on strace's own output first (the pattern
# is strace's), then on sonde's; deterministic lines are compared whole.
# -e's short and plural aliases. Options sonde has no counterpart of are
# refused with the reason.
. "$(dirname "$0")/lib.sh"
need_root
need_strace

W=(sh -c 'printf "a\tb\001\377c\n" > /dev/null; exec true')

# fmt NAME PATTERN OPTIONS...: the first write line of each tracer has
# PATTERN (an ERE, matched whole).
fmt() {
	local name=$1 pat=$2 t
	shift 2
	for t in strace "$SONDE strace"; do
		# shellcheck disable=SC2086 # the tool is two words for sonde
		$t -qq -e trace=write -o "$TMP/f.out" "$@" "${W[@]}" > /dev/null 2>&1
		check "strace_longopts: $name: ${t##*/} prints $pat" \
			grep -qE "^$pat\$" "$TMP/f.out"
	done
}

WR='write\(1, "a\\tb\\1\\377c\\n", 7\) += 7'
fmt "--absolute-timestamps" "[0-9]{2}:[0-9]{2}:[0-9]{2} $WR" --absolute-timestamps
fmt "--absolute-timestamps=ms" "[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} $WR" --absolute-timestamps=ms
fmt "--absolute-timestamps=format:time,precision:ns" \
	"[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{9} $WR" --absolute-timestamps=format:time,precision:ns
fmt "--absolute-timestamps=unix,us" "[0-9]{10}\.[0-9]{6} $WR" --absolute-timestamps=unix,us
fmt "--absolute-timestamps=unix,s" "[0-9]{10} $WR" --absolute-timestamps=unix,s
fmt "--absolute-timestamps=none" "$WR" --absolute-timestamps=none
fmt "--relative-timestamps=ns" " +[0-9]+\.[0-9]{9} $WR" --relative-timestamps=ns
fmt "--relative-timestamps=s" " +[0-9]+ $WR" --relative-timestamps=s
fmt "-r --relative-timestamps=ms" " +[0-9]+\.[0-9]{3} $WR" -r --relative-timestamps=ms
fmt "--relative-timestamps=ms -r" " +[0-9]+\.[0-9]{6} $WR" --relative-timestamps=ms -r
fmt "--syscall-times" "$WR <[0-9]+\.[0-9]{6}>" --syscall-times
fmt "--syscall-times=ns" "$WR <[0-9]+\.[0-9]{9}>" --syscall-times=ns
fmt "--syscall-times=s" "$WR <[0-9]+>" --syscall-times=s
fmt "--string-limit=3" 'write\(1, "a\\tb"\.\.\., 7\) += 7' --string-limit=3
fmt "--const-print-style=verbose" "$WR" --const-print-style=verbose
fmt "--strings-in-hex" 'write\(1, "\\x61\\x09\\x62\\x01\\xff\\x63\\x0a", 7\) = 7' --strings-in-hex
fmt "--strings-in-hex=non-ascii-chars" 'write\(1, "a\\tb\\x01\\xffc\\n", 7\) += 7' \
	--strings-in-hex=non-ascii-chars
fmt "--strings-in-hex=non-ascii" 'write\(1, "\\x61\\x09\\x62\\x01\\xff\\x63\\x0a", 7\) = 7' \
	--strings-in-hex=non-ascii
fmt "--strings-in-hex=none" "$WR" --strings-in-hex=none
fmt "--write=1" ' \| 00000  61 09 62 01 ff 63 0a +a\.b\.\.c\. +\|' --write=1
fmt "--instruction-pointer" "\[[0-9a-f]{16}\] $WR" --instruction-pointer

# --columns=60: " = " at column 60, as strace puts it.
for t in strace "$SONDE strace"; do
	# shellcheck disable=SC2086
	$t -qq -e trace=write --columns=60 -o "$TMP/c.out" "${W[@]}" > /dev/null 2>&1
	check "strace_longopts: --columns=60: ${t##*/} puts \"= \" at column 60" \
		[ "$(awk '/^write/ { print index($0, "= 7") - 1 }' "$TMP/c.out")" = 60 ]
done

# Aliases and -e abbrev=SET, whole logs against strace's (no time in them;
# execve's environment names the tracer, so execve is left out).
for o in "--no-abbrev" "--abbrev=none" "--abbrev=newfstatat" "-e abbrev=!execve,rt_sigaction" \
	"--verbose=all" "--verbose=none" "--verbose=!%signal" "--read=0" "--const-print-style=raw"; do
	# shellcheck disable=SC2086 # o may be two words
	strace -f -e 'trace=!execve' -o "$TMP/a.ref" $o "${W[@]}" > /dev/null 2>&1
	# shellcheck disable=SC2086
	"$SONDE" strace -f -e 'trace=!execve' -o "$TMP/a.got" $o "${W[@]}" > /dev/null 2>&1
	res=$(python3 tests/integration/strace_norm.py "$TMP/a.ref" "$TMP/a.got")
	read -r _ m t <<<"$(head -1 <<<"$res")"
	check "strace_longopts: $o: $m/$t lines as strace" [ "$t" -gt 0 -a "$m" = "$t" ]
done

# -A / --output-append-mode: the second run's lines after the first's.
rm -f "$TMP/app.out"
for o in -A --output-append-mode; do
	"$SONDE" strace -qq $o -e trace=write -o "$TMP/app.out" "${W[@]}" > /dev/null 2>&1
done
check "strace_longopts: -A then --output-append-mode: both runs' lines kept" \
	[ "$(grep -c '^write' "$TMP/app.out")" = 2 ]
"$SONDE" strace -qq -e trace=write -o "$TMP/app.out" "${W[@]}" > /dev/null 2>&1
check "strace_longopts: without -A the file is truncated" \
	[ "$(grep -c '^write' "$TMP/app.out")" = 1 ]

# -e's aliases, strace 6.1's (filter_qualify.c): the same lines as the
# full name, and strace takes them too.
for pair in x=write:raw=write reads=1:read=1 writes=1:write=1 decode-fd=path:decode-fds=path \
	decode-pid=comm:decode-pids=comm s=none:signal=none a=none:abbrev=none t=write:trace=write \
	x=write@64:raw=write t=write@64:trace=write v=none:verbose=none; do
	alias=${pair%%:*} full=${pair#*:}
	strace -qq -e "$alias" -o /dev/null "${W[@]}" > /dev/null 2>&1
	rs=$?
	"$SONDE" strace -qq -e trace=write -e "$alias" -o "$TMP/al.a" "${W[@]}" > /dev/null 2>&1
	"$SONDE" strace -qq -e trace=write -e "$full" -o "$TMP/al.f" "${W[@]}" > /dev/null 2>&1
	sed -i -E 's/0x[0-9a-f]{6,}/ADDR/g' "$TMP/al.a" "$TMP/al.f" # -e raw='s buffer address
	check_all "strace_longopts: -e $alias is -e $full, as in strace" \
		[ $rs = 0 ] '&&' [ -s "$TMP/al.a" ] '&&' cmp -s "$TMP/al.a" "$TMP/al.f"
done

# --attach: -p's long form (the sleep outlasts sonde's start even on a
# loaded machine: attaching to a pid already gone fails, as it should).
sleep 2 & sp=$!
"$SONDE" strace -qq --attach=$sp -e trace=none -o /dev/null > /dev/null 2>&1
check "strace_longopts: --attach=PID follows PID until it exits (status 0)" [ $? = 0 ]
wait $sp

# --stack-traces: -k's long form, the same stacks.
"$SONDE" strace -k -e trace=getppid -o "$TMP/k.s" "$FIX/strace_stack" > /dev/null 2>&1
"$SONDE" strace --stack-traces -e trace=getppid -o "$TMP/k.l" "$FIX/strace_stack" > /dev/null 2>&1
sed -E -i 's/\b[0-9]{3,7}\b/N/g' "$TMP/k.s" "$TMP/k.l"
check_all "strace_longopts: --stack-traces is -k" \
	grep -q '^ > .*(on_usr1+0x' "$TMP/k.l" '&&' cmp -s "$TMP/k.s" "$TMP/k.l"

# Refused with the reason, status 2, as strace refuses the combination
# or sonde lacks the feature.
refused() {
	local why=$1
	shift
	"$SONDE" strace "$@" true > /dev/null 2> "$TMP/r.err"
	check_all "strace_longopts: $* refused: $why (status 2)" \
		[ $? = 2 ] '&&' grep -q "$why" "$TMP/r.err"
}
refused "cannot be given together" -tt --absolute-timestamps=ns
refused "cannot be given together" --absolute-timestamps -t
refused "invalid --absolute-timestamps argument" --absolute-timestamps=bogus
refused "invalid --syscall-times argument" --syscall-times=xs
refused "invalid --strings-in-hex argument" --strings-in-hex=some
refused "only execve" --detach-on=open
refused "grandchild, pgroup (pgrp) or session" --daemonize=process_group
refused "invalid -e kvm= argument: 'vcpus'" --kvm=vcpus
refused "unknown personality '@16'" --trace=write@16
refused "no x86-64 syscall is named fstat64" --raw=fstat64@64
refused "debugging output" -d
