#!/usr/bin/env bash
# Exact decoding checks: every fixture build/fixtures/strace_x_* lists its
# modes with `--modes` (one "MODE|STRACE OPTIONS" per line). Each mode runs
# under Debian's `strace -f OPTIONS` and under `sonde strace -f OPTIONS`;
# the logs, normalised by strace_norm.py (pids, addresses, inodes, times),
# must be identical: every strace line matched and no extra sonde line.
# Unlike strace_diff.sh (real programs, a match threshold because of
# their races), these fixtures are single-threaded and deterministic, so
# any difference is a decoding defect. A mode may name strings strace's
# log must contain (a third field, tab-separated; xmodes.h): the check
# that the calls it exercises ran and printed what they are for.
# STRACE_X=NAME runs the fixture strace_x_NAME only.
. "$(dirname "$0")/lib.sh"
need_root
need_strace

for fix in "$FIX"/strace_x_${STRACE_X:-*}; do
	[ -x "$fix" ] || continue
	while IFS='|' read -r mode opts expect; do
		[ -n "$mode" ] || continue
		name="$(basename "$fix" | sed 's/^strace_x_//')_$mode"
		d=$TMP/run.$name
		rm -rf "$d" && mkdir -p "$d"
		pid_headroom
		# shellcheck disable=SC2086 # opts is a list of options
		(cd "$d" && strace -f -o "$TMP/$name.strace" $opts "$fix" "$mode" </dev/null >/dev/null 2>&1)
		rm -rf "$d" && mkdir -p "$d"
		# shellcheck disable=SC2086
		(cd "$d" && "$SONDE" strace -f -o "$TMP/$name.sonde" $opts "$fix" "$mode" </dev/null >/dev/null 2>"$TMP/$name.err")
		res=$(python3 tests/integration/strace_norm.py "$TMP/$name.strace" "$TMP/$name.sonde")
		read -r _ m t <<<"$(head -1 <<<"$res")"
		missing=
		while IFS= read -r e; do
			[ -z "$e" ] || grep -qF -- "$e" "$TMP/$name.strace" || missing="$missing [$e]"
		done < <(tr '\t' '\n' <<<"$expect")
		if [ -n "$missing" ]; then
			notok "strace_exact $name: strace's log lacks$missing"
			continue
		fi
		if [ "$t" -gt 0 ] && [ "$m" -eq "$t" ] && [ "$(wc -l <<<"$res")" -eq 1 ]; then
			ok "strace_exact $name ($opts): $m/$t lines identical"
		else
			notok "strace_exact $name ($opts): $m/$t lines match"
			tail -n +2 <<<"$res" | head -20 | sed 's/^/# /'
			[ -s "$TMP/$name.err" ] && head -5 "$TMP/$name.err" | sed 's/^/# stderr: /'
		fi
	done < <("$fix" --modes)
done
