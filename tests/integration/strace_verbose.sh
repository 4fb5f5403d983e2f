#!/usr/bin/env bash
# -e verbose=SET (--verbose=SET): the calls outside SET print their
# structs and arrays as addresses. Debian's strace 6.1 and sonde strace
# run the same fixture modes and programs with the same sets; the logs,
# normalised by strace_norm.py (pids, addresses, inodes, times), must be
# identical: every strace line matched and no extra sonde line. The
# modes cover the decoders whose shape changes beyond an address (found
# by diffing strace's verbose=all and verbose=none logs): select's ready
# sets that stay, poll's and recvmmsg's results that go, adjtimex's clock
# state, bpf's descriptor result, keyctl's KDF parameters that stay,
# getdents' count, rt_sigreturn's mask, netlink buffers as bytes, execve's
# argv and envp. Then sonde print --strace with a set, --verbose= as
# -e verbose=, and JSON, which keeps every value.
. "$(dirname "$0")/lib.sh"
need_root
need_strace

SETS=(none '%file,%desc' '!%signal,getdents64' '/^(rt_|new|sel|exec)')
MODES=(
	attr:caps attr:sched file:fcntl file:utime file:tty gaps:mincore gaps:shm
	gaps:sem gaps:seccomp gaps:bpf_y gaps:uring gaps:futex_waitv gaps:timestamps
	keys:crypto misc:poll misc:poll_y misc:wait misc:statx misc:splice misc:rwv2
	net:recvmmsg_timeout net:sockaddrs net:netlink_sockopt net:other_sockopt
	numa:set numa:get ptrace:peek rare:mqueue rare:admin rare:handles rare:keys
	rare:sysv old:ldt pids:signals pids:sched
)

# vpair SET NAME OPTIONS -- CMD...: both tracers, -f -o, in a fresh
# directory each; m and t: lines matched and strace's lines, extra: the
# count of unmatched lines on either side.
vpair() {
	local set=$1 name=$2 d=$TMP/run opts=() res
	shift 2
	while [ "$1" != -- ]; do
		opts+=("$1")
		shift
	done
	shift
	rm -rf "$d" && mkdir -p "$d"
	pid_headroom
	(cd "$d" && strace -f -o "$TMP/$name.strace" "${opts[@]}" -e verbose="$set" "$@" \
		< /dev/null > /dev/null 2>&1)
	rm -rf "$d" && mkdir -p "$d"
	pid_headroom
	(cd "$d" && "$SONDE" strace -f -o "$TMP/$name.sonde" "${opts[@]}" -e verbose="$set" "$@" \
		< /dev/null > /dev/null 2>&1)
	res=$(python3 tests/integration/strace_norm.py "$TMP/$name.strace" "$TMP/$name.sonde")
	read -r _ m t <<<"$(head -1 <<<"$res")"
	extra=$(($(wc -l <<<"$res") - 1))
	diffs=$(tail -n +2 <<<"$res" | head -10)
}

# compare SET NAME OPTIONS -- CMD...: ok when the logs are identical. A
# pair of runs that differs is shown and run again once (a program's
# timing: where a signal lands); a decoding difference fails again.
compare() {
	local set=$1 name=$2
	vpair "$@"
	if [ "$t" -eq 0 ] || [ "$m" != "$t" ] || [ "$extra" != 0 ]; then
		echo "# strace_verbose: $name, verbose=$set: $m/$t lines at the first run, run again:"
		sed 's/^/#   /' <<<"$diffs"
		vpair "$@"
	fi
	if [ "$t" -gt 0 ] && [ "$m" = "$t" ] && [ "$extra" = 0 ]; then
		ok "strace_verbose: $name, -e verbose=$set: $m/$t lines as strace"
	else
		notok "strace_verbose: $name, -e verbose=$set: $m/$t lines match"
		sed 's/^/# /' <<<"$diffs"
	fi
}

for set in "${SETS[@]}"; do
	for fm in "${MODES[@]}"; do
		fix=$FIX/strace_x_${fm%%:*} mode=${fm#*:}
		# shellcheck disable=SC2046 # the mode's options are words
		compare "$set" "${fm/:/_}" $("$fix" --modes | awk -F'|' -v m="$mode" '$1 == m { print $2 }') \
			-- "$fix" "$mode"
	done
	compare "$set" ls_la -- ls -la /usr/share/doc/strace /nonexistent
	compare "$set" fs_dirs -- "$FIX/strace_fs" dirs "$TMP/run"
	compare "$set" proc_signals -- "$FIX/strace_proc" signals
	compare "$set" nl_msgs -- "$FIX/nl_msgs"
	[ "$set" = none ] || continue
	# The set touched something: stat buffers, argv and fd sets as
	# addresses, the strings as they are.
	check_all "strace_verbose: verbose=none prints structs and arrays as addresses" \
		grep -qE ' execve\("/usr/bin/ls", 0x[0-9a-f]+, 0x[0-9a-f]+\) += 0$' \
		"$TMP/ls_la.sonde" \
		'&&' grep -qE ' newfstatat\(3, "", 0x[0-9a-f]+, AT_EMPTY_PATH\) += 0$' \
		"$TMP/ls_la.sonde" \
		'&&' grep -q ' select(5, 0x' "$TMP/misc_poll.sonde"
done

# sonde print --strace takes the set too: a recorded trace printed with
# it is what sonde strace printed.
"$SONDE" strace -f -o "$TMP/p.live" --trace-file "$TMP/p.sonde" -e verbose='!%file' \
	ls -la /usr/share/doc/strace > /dev/null 2>&1
"$SONDE" print --strace -e verbose='!%file' "$TMP/p.sonde" > "$TMP/p.print" 2>&1
check_all "strace_verbose: print --strace -e verbose= prints what sonde strace did" \
	grep -q ' newfstatat(3, "", 0x' "$TMP/p.print" '&&' cmp -s "$TMP/p.live" "$TMP/p.print"

# --verbose=SET is -e verbose=SET.
"$SONDE" strace -qq -e trace=newfstatat,rt_sigprocmask --verbose=%signal -o "$TMP/l.long" \
	ls -d / > /dev/null 2>&1
"$SONDE" strace -qq -e trace=newfstatat,rt_sigprocmask -e verbose=%signal -o "$TMP/l.short" \
	ls -d / > /dev/null 2>&1
sed -i -E 's/0x[0-9a-f]{6,}/ADDR/g' "$TMP/l.long" "$TMP/l.short"
check_all "strace_verbose: --verbose=%signal is -e verbose=%signal" \
	grep -q '^newfstatat(.*ADDR' "$TMP/l.long" '&&' cmp -s "$TMP/l.long" "$TMP/l.short"

# JSON is no strace output: it keeps every struct whatever the set says.
"$SONDE" strace --json -e verbose=none -e trace=newfstatat -o "$TMP/j.out" ls -d / \
	> /dev/null 2>&1
check "strace_verbose: --json -e verbose=none keeps the stat buffers" \
	grep -q '"statbuf":{"st_dev"' "$TMP/j.out"
