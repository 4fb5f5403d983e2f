#!/usr/bin/env bash
# Builds every tests/fuzz/fuzz_*.c as a libFuzzer binary (clang,
# -fsanitize=fuzzer,address,undefined) against the libsonde sources that
# need no BPF skeleton, seeds a corpus for each and runs each target for
# SECONDS / number-of-targets (at least 5 s). Prints "ok - fuzz_NAME (N
# runs)" or "not ok - fuzz_NAME" with the crash report.
#
# Seeds: tests/fuzz/corpus/NAME/* if present, plus whatever
# tests/fuzz/seed_NAME.c (built with the normal compiler) writes into the
# corpus directory it is given. The corpus grows in build-fuzz/corpus/NAME
# across runs; crashes land in build-fuzz/artifacts/.
#
# Library code is compiled with FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION,
# which makes the trace reader skip checksum verification (see
# src/format/layout.h) so mutated inputs reach the decoders.
set -u
cd "$(dirname "$0")/../.."
total=${1:-60}
B=build-fuzz
CLANG=${CLANG:-clang}
LIB_DIRS="src/format src/decode src/decode/strace src/lang src/analysis src/util src/stack src/inject"
LDLIBS=$(sed -n 's/^LDLIBS := //p' Makefile)
FLAGS="-g -O1 -std=gnu11 -D_GNU_SOURCE -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION \
	-Iinclude -Isrc -I$B -fno-omit-frame-pointer"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
mkdir -p "$B/obj" "$B/artifacts" "$B/corpus"

targets=(tests/fuzz/fuzz_*.c)
if [ ! -e "${targets[0]}" ]; then
	echo "not ok - fuzz (no tests/fuzz/fuzz_*.c)"
	exit 1
fi
if ! echo 'int LLVMFuzzerTestOneInput(const char *d, long n){return 0;}' |
	"$CLANG" -x c -fsanitize=fuzzer - -o "$B/probe" 2>"$B/probe.log"; then
	echo "not ok - fuzz: $CLANG cannot build libFuzzer targets (run 'make deps':"
	echo "  libclang-rt-14-dev provides the runtime); $(head -n 3 "$B/probe.log")"
	exit 1
fi

# Library objects, instrumented for coverage (fuzzer-no-link).
objs=()
for d in $LIB_DIRS; do
	for src in "$d"/*.c; do
		[ -f "$src" ] || continue
		obj="$B/obj/$(echo "${src%.c}" | tr / _).o"
		if [ ! "$obj" -nt "$src" ] ||
			[ -n "$(find include src -name '*.h' -newer "$obj" | head -n 1)" ]; then
			if ! "$CLANG" $FLAGS $SAN -fsanitize=fuzzer-no-link -c "$src" -o "$obj" \
				2>"$obj.log"; then
				echo "not ok - fuzz: cannot compile $src"
				sed 's/^/    /' "$obj.log" | head -n 20
				exit 1
			fi
		fi
		objs+=("$obj")
	done
done

per=$((total / ${#targets[@]}))
[ "$per" -lt 5 ] && per=5
status=0
for t in "${targets[@]}"; do
	name=$(basename "$t" .c)
	short=${name#fuzz_}
	bin="$B/$name"
	corpus="$B/corpus/$name"
	log="$B/$name.log"
	mkdir -p "$corpus"
	if ! "$CLANG" $FLAGS $SAN -fsanitize=fuzzer "$t" "${objs[@]}" -o "$bin" $LDLIBS \
		2>"$log"; then
		echo "not ok - $name (does not build)"
		sed 's/^/    /' "$log" | head -n 20
		status=1
		continue
	fi
	[ -d "tests/fuzz/corpus/$short" ] && cp -n tests/fuzz/corpus/"$short"/* "$corpus"/ 2>/dev/null
	seed="tests/fuzz/seed_$short.c"
	if [ -f "$seed" ]; then
		# A plain program (no fuzzer main) over the same objects.
		if ! "$CLANG" $FLAGS $SAN "$seed" "${objs[@]}" -o "$B/seed_$short" $LDLIBS \
			2>"$log" ||
			! "$B/seed_$short" "$corpus" >>"$log" 2>&1; then
			echo "not ok - $name (seed generator $seed failed)"
			sed 's/^/    /' "$log" | head -n 20
			status=1
			continue
		fi
	fi
	# -timeout: one input taking over 10 s is a hang; -rss_limit_mb: a
	# reader allocating absurd amounts is a bug.
	"$bin" -max_total_time="$per" -timeout=10 -rss_limit_mb=2048 -max_len=262144 \
		-artifact_prefix="$B/artifacts/$name-" -print_final_stats=1 \
		"$corpus" >"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	if [ "$rc" -eq 0 ] && [ -n "$runs" ]; then
		echo "ok - $name (${runs} runs in ${per}s, corpus $(ls "$corpus" | wc -l))"
	else
		echo "not ok - $name (exit status $rc); crash report:"
		grep -E -A 30 'ERROR: |runtime error|deadly signal|Timeout|out-of-memory' "$log" |
			head -n 40 | sed 's/^/    /'
		ls "$B"/artifacts/"$name"-* 2>/dev/null | sed 's/^/    input: /'
		status=1
	fi
done
exit $status
