#!/usr/bin/env bash
# sonde record's kernel-side filters on the rec_seq fixture: -e trace= with
# names, classes and negation, --failed-only, --no-sched.
. "$(dirname "$0")/lib.sh"
need_root
CHECK=tests/integration/record_check.py

rec() { # name options...
	local name=$1; shift
	"$SONDE" record -q -o "$TMP/$name.trace" "$@" -- "$FIX/rec_seq" "$TMP/$name.facts"
	"$SONDE" print --json "$TMP/$name.trace" > "$TMP/$name.json"
}

rec names -e trace=close,lseek
python3 "$CHECK" names "$TMP/names.json" "trace=close,lseek" close,lseek close,lseek
python3 "$CHECK" forkflags "$TMP/names.json" "trace=close,lseek" "$TMP/names.facts"
check "trace=close,lseek: exec and exit records still there" \
	grep -q '"type":"exec"' "$TMP/names.json"

rec neg -e 'trace=!close,read'
python3 "$CHECK" absent "$TMP/neg.json" "trace=!close,read" close,read
python3 "$CHECK" names "$TMP/neg.json" "trace=!close,read" "" write,lseek,execve,clone3

rec cls -e trace=%process
python3 "$CHECK" names "$TMP/cls.json" "trace=%process" \
	execve,clone,clone3,vfork,wait4,exit,exit_group,fork,execveat,kill,tgkill,tkill,waitid \
	execve,clone3,wait4,exit_group

rec failed --failed-only
python3 "$CHECK" failed "$TMP/failed.json" "--failed-only"

rec nosched --no-sched
python3 "$CHECK" nosched "$TMP/nosched.json" "--no-sched"
python3 "$CHECK" seq "$TMP/nosched.json" "$TMP/nosched.facts" nosched
exit 0
