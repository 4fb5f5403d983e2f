#!/usr/bin/env bash
# KVM's ioctls against Debian's strace 6.1, on tests/fixtures/kvm_calls (a
# one-page real-mode guest run to its HLT): the requests strace decodes
# (KVM_CHECK_EXTENSION's capability, the memory slot, the register sets,
# the cpuid tables, KVM_CREATE_VM and KVM_CREATE_VCPU's descriptors) and
# their error paths, line for line under each option that changes them;
# -e kvm=vcpu's exit reasons (" = 0 (KVM_EXIT_IO)"), which the recorder
# reads through the vcpu in the kernel; the KVM worker thread the kernel
# starts at the first KVM_RUN, which strace never sees, shows no line and
# does not keep the process's exit line from coming; JSON; the option's
# errors (sonde's usage status, 2). Needs /dev/kvm: without it the fixture exits 77 and the test
# says it skipped.
. "$(dirname "$0")/lib.sh"
need_root
need_strace
F=$FIX/kvm_calls

"$F" > "$TMP/probe" 2>&1
rc=$?
if [ $rc = 77 ]; then
	echo "ok - strace_kvm # SKIP $(cat "$TMP/probe")"
	exit 0
fi
check "strace_kvm: the guest ran to its HLT (exit_reason 5)" \
	[ $rc = 0 -a "$(cat "$TMP/probe")" = "exit_reason 5" ]

# compare NAME OPTIONS...: strace -f and sonde strace -f with OPTIONS,
# normalised by strace_norm.py, every line identical. On CPU 0 both
# times: the cpuid tables KVM returns hold the APIC id of the CPU the
# call ran on (leaf 1's ebx, leaf 0xb's edx), which -v shows.
compare() {
	local name=$1 res m t
	shift
	taskset -c 0 strace -f -o "$TMP/$name.ref" "$@" "$F" > /dev/null
	taskset -c 0 "$SONDE" strace -f -o "$TMP/$name.got" "$@" "$F" > /dev/null
	res=$(python3 tests/integration/strace_norm.py "$TMP/$name.ref" "$TMP/$name.got")
	read -r _ m t <<< "$(head -1 <<< "$res")"
	if [ "${t:-0}" -gt 0 ] && [ "$m" = "$t" ] && [ "$(wc -l <<< "$res")" = 1 ]; then
		ok "strace_kvm: $name ($*): $m/$t lines identical"
	else
		notok "strace_kvm: $name ($*): $m/$t lines match"
		tail -n +2 <<< "$res" | head -20 | sed 's/^/# /'
	fi
}

compare vcpu -e kvm=vcpu -e trace=ioctl
compare plain -e trace=ioctl
compare v -v -e kvm=vcpu -e trace=ioctl
compare yy -yy -e kvm=vcpu -e trace=ioctl,mmap,openat
compare xverbose -X verbose -e trace=ioctl
compare xraw -X raw -e trace=ioctl
compare all -e kvm=vcpu
compare long --kvm=vcpu -e trace=ioctl

check "strace_kvm: strace's log has what the fixture is for" \
	grep -qE 'KVM_RUN, 0\) += 0 \(KVM_EXIT_HLT\)$' "$TMP/vcpu.ref"
check "strace_kvm: without -e kvm=vcpu no exit reason" \
	sh -c '! grep -q "(KVM_EXIT" "$1"' sh "$TMP/plain.got"
check "strace_kvm: -yy names the VM and the vcpu as strace does" \
	grep -q 'KVM_CREATE_VCPU, 0) *= 5<anon_inode:kvm-vcpu:0>' "$TMP/yy.got"

# The worker thread (kvm-nx-lpage-recovery) is in the process: sonde sees
# it exit (record), strace never does, and neither shows it.
"$SONDE" record -q -o "$TMP/k.trace" -- "$F" > /dev/null
"$SONDE" print --json "$TMP/k.trace" > "$TMP/k.json"
check "strace_kvm: the trace holds the worker's exit, marked" \
	python3 -c '
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
w = [o for o in r if o.get("type") == "exit" and o.get("worker")]
sys.exit(not (len(w) == 1 and w[0]["tid"] != w[0]["pid"]))' "$TMP/k.json"
"$SONDE" strace -o "$TMP/nof.got" "$F" > /dev/null
check "strace_kvm: without -f the process's exit line ends the log" \
	[ "$(tail -1 "$TMP/nof.got")" = "+++ exited with 0 +++" ]
"$SONDE" strace -f "$F" > /dev/null 2> "$TMP/stderr.got"
check "strace_kvm: -f to standard error: no [pid N] line, no attached line" \
	sh -c '! grep -qE "^\[pid|attached" "$1" && tail -1 "$1" | grep -qx "+++ exited with 0 +++"' \
	sh "$TMP/stderr.got"

# JSON: the exit reason whatever -e kvm= says; the request by name.
"$SONDE" strace --json -e trace=ioctl "$F" > /dev/null 2> "$TMP/j.json"
check "strace_kvm: --json: KVM_RUN's results carry exit_reason" \
	python3 -c '
import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
runs = [o for o in r if o.get("name") == "ioctl" and o["args"][1] == 0xae80 and o["ret"] == 0]
reg = [o for o in r if o.get("name") == "ioctl" and o["args"][1] == 0x8090ae81 and o["ret"] == 0]
sys.exit(not ([o["result"]["exit_reason"] for o in runs] == ["KVM_EXIT_IO", "KVM_EXIT_HLT"]
              and reg and reg[0]["argv"]["arg"]["rip"] == 4096 and "r15" in reg[0]["argv"]["arg"]))' \
	"$TMP/j.json"

# The option as strace takes it: vcpu, nothing else.
for v in foo '' all 'vcpu,vcpu'; do
	strace -e "kvm=$v" true 2> "$TMP/e.ref"
	"$SONDE" strace -e "kvm=$v" true 2> "$TMP/e.got"
	rs=$?
	check "strace_kvm: -e kvm=$v refused as strace refuses it" \
		[ $rs = 2 -a "$(sed 's/^strace: //' "$TMP/e.ref")" = "$(sed 's/^sonde strace: //' "$TMP/e.got")" ]
done
