# Shared helpers for integration tests (sourced). Tests run as root and load
# BPF for real. Each check prints "ok - NAME" or "not ok - NAME".
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
B=${SONDE_BUILD:-build}
SONDE=$PWD/$B/sonde
FIX=$PWD/build/fixtures
TMP=$(mktemp -d /tmp/sonde-it.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; }
# check NAME CMD...: ok when CMD succeeds.
check() {
	local name=$1; shift
	if "$@"; then ok "$name"; else notok "$name"; fi
}
# sanitized: true for an ASan/UBSan build (make asan) of sonde.
sanitized() {
	grep -q __asan_init "$SONDE"
}
# need_cmd CMD MESSAGE: a not ok line "TEST: MESSAGE" and the test's end
# when CMD is not installed (TEST: the script's name).
need_cmd() {
	command -v "$1" > /dev/null && return 0
	notok "$(basename "$0" .sh): $2"
	exit 1
}
# need_strace: the tests that compare with Debian's strace.
need_strace() {
	need_cmd strace "Debian's strace is not installed (apt-get install strace)"
}
need_root() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "not ok - $0 needs root (integration tests load BPF)"
		exit 1
	fi
}
# pid_headroom: moves the next pid away from the small numbers and from
# round ones. The comparisons with strace replace every number equal to a
# traced pid by its label (strace_norm.py); once pids wrap past pid_max
# they restart at 300, where a pid can equal a size or a count in the
# same log (a 784-byte pread64 traced by pid 784), and round numbers are
# as likely to collide (a child pid 24576 turned an mmap of 0x6000 bytes
# into a pid). Pids are kept in 17000..pid_max-2000, and the next 100 hold
# no multiple of 512 or of 1000 (sizes, counts). Best effort: other
# processes may take pids meanwhile, and without the file nothing changes.
pid_headroom() {
	local last max r
	last=$(cat /proc/sys/kernel/ns_last_pid 2>/dev/null) || return 0
	max=$(cat /proc/sys/kernel/pid_max)
	if [ "$last" -lt 17000 ] || [ "$last" -gt $((max - 2000)) ]; then
		last=17000
	fi
	for ((r = last + 1; r <= last + 100; r++)); do
		if ((r % 512 == 0 || r % 1000 == 0)); then
			last=$r
		fi
	done
	echo "$last" > /proc/sys/kernel/ns_last_pid 2>/dev/null || true
}
pid_headroom
# same NAME A B: ok when A (not empty) and B are equal files, else the
# diff as comments.
same() {
	if [ -s "$2" ] && diff -u "$2" "$3" > "$TMP/diff"; then
		ok "$1"
	else
		notok "$1"
		head -40 "$TMP/diff" | sed 's/^/# /'
	fi
}
# count_rows FILE: "syscall calls errors" of a -c table's rows, in its
# order ("-" for no errors).
count_rows() {
	awk '/^-----/ { n++; next } n == 1 { print $NF, $4, (NF == 6 ? $5 : "-") }' "$1"
}
# strace_joined FILE: a `strace -f -o` log with each call's
# "<unfinished ...>" and "<... resumed>" halves joined into one line and
# the alignment before " = " squeezed (where a call is split depends on
# timing; strace_norm.py).
strace_joined() {
	python3 -c 'import re, sys; sys.path.insert(0, "tests/integration"); import strace_norm
for pid, text in strace_norm.parse(sys.argv[1]): print(pid, re.sub(r"\s+= ", " = ", text))' "$1"
}
# check_all NAME CMD '&&' CMD ...: ok when every command succeeds (a bare
# && after `check NAME CMD` would run outside the check, unreported).
check_all() {
	local name=$1 rc=0 a
	local -a cmd=()
	shift
	for a in "$@" '&&'; do
		if [ "$a" = '&&' ]; then
			"${cmd[@]}" || rc=1
			cmd=()
		else
			cmd+=("$a")
		fi
	done
	if [ $rc = 0 ]; then ok "$name"; else notok "$name"; fi
}
# ff_run ARGS...: `strace -ff -ttt -o $TMP/a/t ARGS` and `sonde strace` the
# same into $TMP/b/t (ARGS: options, then the command), their standard
# output and error in $TMP/a.out and $TMP/b.out (a subshell, so that a
# command killed by a signal is not reported here).
ff_run() {
	rm -rf "$TMP/a" "$TMP/b"
	mkdir -p "$TMP/a" "$TMP/b"
	(strace -ff -ttt -o "$TMP/a/t" "$@"; true) > "$TMP/a.out" 2>&1
	"$SONDE" strace -ff -ttt -o "$TMP/b/t" "$@" > "$TMP/b.out" 2>&1
}
# ff_by_start DIR: the per-task files DIR/t.PID of `strace -ff -ttt` in the
# order the tasks started (their first line's time: pids may wrap).
ff_by_start() {
	local f
	for f in "$1"/t.*; do
		echo "$(head -c 20 "$f" | cut -d' ' -f1) $f"
	done | sort -n | cut -d' ' -f2
}
# ff_norm DIR [SED-ARGS...]: those files, each after a "== task" line, the
# times cut, pids as T0, T1... in start order, addresses as ADDR, the
# padding before " = " squeezed, the envp count, getrandom's bytes and
# getppid's result (the tracer) left out; then SED-ARGS.
ff_norm() {
	local dir=$1 i=0 sub=() f p
	shift
	for f in $(ff_by_start "$dir"); do
		p=${f##*.}
		sub+=(-e "s/\\b$p\\b/T$i/g")
		i=$((i + 1))
	done
	for f in $(ff_by_start "$dir"); do
		echo "== task"
		sed -E "${sub[@]}" -e 's/^[0-9]+\.[0-9]+ //' -e 's/0x[0-9a-f]{6,}/ADDR/g' \
			-e 's/\) +=/) =/' -e 's|/\* [0-9]+ vars \*/|/* N vars */|' \
			-e 's/^(getrandom\()"[^"]*"/\1"R"/' -e 's/^(getppid\(\) = )[0-9]+$/\1PPID/' \
			"$@" "$f"
	done
}
