#!/usr/bin/env bash
# Differential suite: each workload runs under Debian's `strace -f` and
# under `sonde strace -f`; the logs are compared by strace_norm.py
# (normalised only for pids, addresses, alignment, time values and
# strace's unfinished/resumed split). Prints one line per workload and the
# total "N of M lines matched"; the unmatched lines go to
# $STRACE_DIFF_OUT (default $TMP/diffs.txt), explained in
# docs/strace-differences.md. A workload fails when sonde strace fails or
# matches less than STRACE_DIFF_MIN percent (default 90) of its lines.
. "$(dirname "$0")/lib.sh"
need_root
need_strace
min=${STRACE_DIFF_MIN:-90}
out=${STRACE_DIFF_OUT:-$TMP/diffs.txt}
: > "$out"
W=$TMP/w
mkdir -p "$W"
echo "hello" > "$W/in.txt"
seq 1 2000 > "$W/seq.txt"

workloads=()
for m in open_errors rw binary huge long_path dirs stat fcntl pipe_iov mmap xattr; do
	workloads+=("fs_$m|$FIX/strace_fs $m DIR")
done
for m in unix inet msg poll epoll; do workloads+=("net_$m|$FIX/strace_net $m"); done
for m in fork kill threads signals misc exec; do workloads+=("proc_$m|$FIX/strace_proc $m"); done
workloads+=(
	"ls_la|ls -la /etc/hostname /nonexistent"
	"ls_dir|ls -la /usr/share/doc/strace"
	"cat|cat $W/in.txt"
	"cat_missing|cat /nonexistent"
	"cp|cp $W/seq.txt DIR/copy"
	"tar_c|tar -cf DIR/t.tar -C /usr/share/doc strace"
	"tar_t|tar -tvf /dev/null"
	"find|find /usr/share/doc/strace"
	"sh_pipe|sh -c 'cat $W/seq.txt | wc -l'"
	"sh_redirect|sh -c 'echo hi > DIR/o; cat DIR/o'"
	"sh_loop|sh -c 'for i in 1 2 3; do echo \$i; done'"
	"python_print|python3 -S -c 'print(1)'"
	"python_file|python3 -S -c 'open(\"$W/in.txt\").read()'"
	"head|head -c 100 $W/seq.txt"
	"wc|wc -l $W/seq.txt"
	"sort|sort -n $W/seq.txt"
	"sed|sed -n 5p $W/seq.txt"
	"grep|grep -c 1 $W/seq.txt"
	"stat|stat /etc/hostname"
	"touch|touch DIR/newfile"
	"mkdir_p|mkdir -p DIR/a/b/c"
	"rm_rf|sh -c 'mkdir -p DIR/r/s && rm -rf DIR/r'"
	"ln_readlink|sh -c 'ln -s /etc/hostname DIR/l && readlink DIR/l'"
	"uname|uname -a"
	"id|id"
	"true|true"
	"false|false"
	"dd|dd if=/dev/zero of=/dev/null bs=4k count=50"
	"gzip|gzip -c $W/seq.txt"
	"md5sum|md5sum $W/seq.txt"
	"env|env -i A=1 /bin/true"
	"timeout|timeout 5 sleep 0.1"
	"xz|xz -c $W/seq.txt"
	"flock|flock DIR/lk -c true"
)

tm=0 tt=0
for w in "${workloads[@]}"; do
	name=${w%%|*}
	cmd=${w#*|}
	d=$TMP/run.$name
	c=${cmd//DIR/$d}
	# Same environment, same (fresh) directory, stdout to /dev/null for
	# both tracers.
	rm -rf "$d" && mkdir -p "$d"
	pid_headroom
	(cd "$d" && eval "strace -f -o $TMP/$name.strace $c" </dev/null >/dev/null 2>$TMP/$name.serr)
	rm -rf "$d" && mkdir -p "$d"
	if ! (cd "$d" && eval "$SONDE strace -f -o $TMP/$name.sonde $c" </dev/null >/dev/null 2>$TMP/$name.err) &&
	   ! [ -s "$TMP/$name.sonde" ]; then
		notok "strace_diff $name: sonde strace failed: $(head -c 300 $TMP/$name.err)"
		continue
	fi
	res=$(python3 tests/integration/strace_norm.py "$TMP/$name.strace" "$TMP/$name.sonde")
	read -r _ m t <<<"$(head -1 <<<"$res")"
	tm=$((tm + m)); tt=$((tt + t))
	{ echo "== $name ($m/$t)"; tail -n +2 <<<"$res"; } >> "$out"
	pct=$(( t ? m * 100 / t : 100 ))
	if [ "$pct" -ge "$min" ]; then
		ok "strace_diff $name: $m/$t lines match"
	else
		notok "strace_diff $name: $m/$t lines match (< $min%)"
	fi
done
echo "# strace_diff: ${#workloads[@]} workloads, $tm of $tt strace lines matched by sonde strace; differences in $out"
