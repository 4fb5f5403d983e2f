#!/usr/bin/env bash
# Runs every test and prints "N passed, N failed" last. Arguments: build
# directories; the unit tests and the integration tests run once per build
# (the first is the normal build, the others e.g. the ASan/UBSan build).
# Each test prints "ok - NAME" or "not ok - NAME" lines (TAP-like); a test
# program that exits non-zero without reporting a failure counts as one.
# SONDE_TESTS=unit or integration runs only that kind (make unit, make
# integration); the default, all, also runs the fuzzers.
set -u
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- build
pass=0 fail=0
failed_names=()
log_dir=$(mktemp -d /tmp/sonde-tests.XXXXXX)

# A failed check is followed by its indented diagnostics; print each with
# them (a long log's tail alone can miss the one check that failed), then
# the log's last lines for what ran after.
show_failures() { # log
	awk '/^not ok - / { n = 25; shown++ }
	     n > 0 && (/^not ok - / || /^[ \t#]/) { print "    " $0; n--; next }
	     { n = 0 }
	     shown >= 20 { exit }' "$1"
	echo "    -- last lines of the log --"
	tail -n 10 "$1" | sed 's/^/    /'
}

count() { # name log rc
	local name=$1 log=$2 rc=$3 p f
	p=$(grep -c '^ok - ' "$log")
	f=$(grep -c '^not ok - ' "$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "not ok - $name (exit status $rc)" >> "$log"
	fi
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "not ok - $name (reported no test)" >> "$log"
	fi
	pass=$((pass + p)); fail=$((fail + f))
	if [ "$f" -gt 0 ]; then
		failed_names+=("$name")
		echo "FAIL $name ($p passed, $f failed); failing checks:"
		show_failures "$log"
	else
		echo "PASS $name ($p)"
	fi
}

run_one() { # name cmd...
	local name=$1; shift
	local log="$log_dir/$(echo "$name" | tr '/ ' '__').log"
	timeout 900 "$@" > "$log" 2>&1
	count "$name" "$log" $?
}

only=${SONDE_TESTS:-all}
case $only in all | unit | integration) ;; *)
	echo "tests/run.sh: SONDE_TESTS=$only: use unit, integration or all" >&2
	exit 2 ;;
esac
for b in "$@"; do
	[ "$only" = integration ] || for t in "$b"/tests/test_*; do
		[ -x "$t" ] && run_one "$b:unit/$(basename "$t")" "$t"
	done
	[ "$only" = unit ] || for t in tests/integration/*.sh; do
		[ "$(basename "$t")" = lib.sh ] && continue # sourced helpers
		[ -f "$t" ] && run_one "$b:$(basename "$t" .sh)" env SONDE_BUILD="$b" bash "$t"
	done
done
if [ "$only" = all ] && [ -x tests/fuzz/run.sh ] && [ "${SONDE_NO_FUZZ:-0}" != 1 ]; then
	run_one "fuzz" bash tests/fuzz/run.sh "${FUZZ_SECONDS:-20}"
fi

echo
[ ${#failed_names[@]} -gt 0 ] && printf 'failed: %s\n' "${failed_names[@]}"
echo "logs: $log_dir"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
