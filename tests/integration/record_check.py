#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Assertions on traces written by `sonde record`, read through
`sonde print --json` (NDJSON). Used by tests/integration/record*.sh; every
check prints "ok - NAME" or "not ok - NAME" (with the evidence on stderr).

usage: record_check.py CHECK JSON [ARGS...]
"""
import json
import sys

EBADF = -9
CLONE_VM, CLONE_VFORK, CLONE_THREAD = 0x100, 0x4000, 0x10000
SIGCHLD = 17


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def facts(path):
    d = {}
    with open(path) as f:
        for line in f:
            k, v = line.split()
            d[k] = int(v)
    return d


failed = 0


def check(name, cond, evidence=None):
    global failed
    print(("ok - " if cond else "not ok - ") + name)
    if not cond:
        failed = 1
        if evidence is not None:
            print("  evidence: %r" % (evidence,), file=sys.stderr)


def syscalls(ev, tid=None, pid=None):
    return [e for e in ev if e["type"] == "syscall" and
            (tid is None or e["tid"] == tid) and (pid is None or e["pid"] == pid)]


def marker_view(e, fx):
    """A syscall of the fixture's marker set as a comparable tuple, or None."""
    n, a, r = e["name"], e["args"], e["ret"]
    if n == "close" and 9000 <= a[0] < 9100:
        return ("close", a[0], r)
    if n == "lseek" and a[0] == 9100:
        return ("lseek", a[0], a[1], a[2], r)
    if n == "read" and a[0] == fx["devzero"]:
        return ("read", a[2], r)
    if n == "write" and a[0] == fx["devnull"]:
        return ("write", a[2], r)
    if n in ("nanosleep", "clock_nanosleep"):
        return ("sleep", r, e["dur"] >= 1000000)
    if n in ("clone", "clone3", "fork", "vfork", "wait4"):
        return (n, r)
    if n in ("exit", "exit_group"):
        return (n, a[0], e["noreturn"])
    if n == "execve":
        return ("execve", r)
    return None


def markers(ev, tid, fx):
    out = []
    for e in syscalls(ev, tid=tid):
        v = marker_view(e, fx)
        if v is not None:
            out.append(v)
    return out


def by_ts(ev):
    return sorted(ev, key=lambda e: e["ts"])


def check_seq(ev, fx, facts_path, sched=True):
    """The rec_seq fixture: per-thread order, raw args, returns, lifecycle."""
    main, t0, t1 = fx["main"], fx["thread0"], fx["thread1"]
    child, vchild = fx["child"], fx["vchild"]
    sc_main = by_ts(syscalls(ev, tid=main))
    check("seq: first syscall of the command is its execve",
          sc_main and sc_main[0]["name"] == "execve" and sc_main[0]["ret"] == 0,
          sc_main[:2])
    want_main = [
        ("execve", 0),
        ("close", 9000, EBADF), ("lseek", 9100, 1234, 0, EBADF),
        ("read", 13, 13), ("write", 99, 99), ("sleep", 0, True),
        ("close", 9001, EBADF), ("clone3", t0), ("clone3", t1),
        ("close", 9002, EBADF), ("clone", child), ("wait4", child),
        ("close", 9003, EBADF), ("vfork", vchild), ("wait4", vchild),
        ("close", 9004, EBADF), ("exit_group", 3, True),
    ]
    got = markers(by_ts(ev), main, fx)
    check("seq: main thread syscalls in order with raw args and returns",
          got == want_main, got)
    for i, tid in enumerate((t0, t1)):
        want = [("close", 9010 + i, EBADF), ("write", 100 + i, 100 + i),
                ("sleep", 0, True), ("close", 9020 + i, EBADF), ("exit", 0, True)]
        got = markers(by_ts(ev), tid, fx)
        check("seq: thread %d syscalls in order" % i, got == want, got)
        check("seq: thread %d records carry the process id" % i,
              all(e["pid"] == main for e in syscalls(ev, tid=tid)))
    want_child = [("close", 9030, EBADF), ("write", 300, 300), ("execve", 0),
                  ("close", 9040, EBADF), ("exit_group", 7, True)]
    got = markers(by_ts(ev), child, fx)
    check("seq: forked child syscalls across its exec", got == want_child, got)
    got = markers(by_ts(ev), vchild, fx)
    check("seq: vfork child exits with 5", got == [("exit_group", 5, True)], got)

    forks = {e["child_tid"]: e for e in ev if e["type"] == "fork"}
    ok = all(t in forks for t in (t0, t1, child, vchild))
    check("seq: a fork record for every thread and child", ok, sorted(forks))
    if ok:
        for i, t in enumerate((t0, t1)):
            f = forks[t]
            check("seq: thread %d fork record (parent, CLONE_THREAD)" % i,
                  f["pid"] == main and f["tid"] == main and f["child_pid"] == main and
                  f["clone_flags"] & CLONE_THREAD and f["thread"], f)
        f = forks[child]
        check("seq: fork child record (parent, SIGCHLD, not a thread)",
              f["pid"] == main and f["child_pid"] == child and
              f["clone_flags"] & 0xff == SIGCHLD and
              not f["clone_flags"] & CLONE_THREAD, f)
        f = forks[vchild]
        check("seq: vfork record has CLONE_VM|CLONE_VFORK",
              f["child_pid"] == vchild and
              f["clone_flags"] & (CLONE_VM | CLONE_VFORK) == CLONE_VM | CLONE_VFORK, f)
    execs = [e for e in ev if e["type"] == "exec"]
    em = [e for e in execs if e["pid"] == main]
    check("seq: exec record of the command",
          len(em) == 1 and em[0]["filename"].endswith("/rec_seq") and
          em[0]["argv"][1:] == [facts_path] and em[0]["comm"] == "rec_seq",
          em)
    ec = [e for e in execs if e["pid"] == child]
    check("seq: exec record of the child (filename, argv, comm)",
          len(ec) == 1 and ec[0]["filename"].endswith("/rec_child") and
          ec[0]["argv"] == ["rec_child", "hello", "world"] and ec[0]["argc"] == 3 and
          ec[0]["comm"] == "rec_child", ec)
    exits = {e["tid"]: e for e in ev if e["type"] == "exit"}
    check("seq: exit records with codes (main 3, child 7, vfork child 5, threads 0)",
          exits.get(main, {}).get("code") == 3 and exits[main]["group_dead"] and
          exits.get(child, {}).get("code") == 7 and
          exits.get(vchild, {}).get("code") == 5 and
          exits.get(t0, {}).get("code") == 0 and not exits[t0]["group_dead"], exits)
    check("seq: child status seen by the parent matches its exit record",
          fx["child_status"] == exits.get(child, {}).get("status"), fx)
    pids = {e["pid"] for e in syscalls(ev)}
    check("seq: only the command's processes are recorded",
          pids == {main, child, vchild}, pids)
    check("seq: no lost events", not [e for e in ev if e["type"] == "lost"])
    if not sched:
        return
    sw = [e for e in ev if e["type"] == "switch"]
    check("seq: context switches of traced tasks recorded",
          any(e["tid"] in (main, t0, t1) or e["next_tid"] in (main, t0, t1) for e in sw))
    # After its exec the main thread's comm is the fixture's name: every
    # switch out of it or into it names it so (comm is read from the task
    # with plain loads, see bpf/sonde.bpf.c).
    ex = [e["ts"] for e in ev if e["type"] == "exec" and e["tid"] == main]
    names = [e["prev_comm"] for e in sw if ex and e["ts"] > ex[0] and e["tid"] == main] + \
        [e["next_comm"] for e in sw if ex and e["ts"] > ex[0] and e["next_tid"] == main]
    check("seq: switch records name the traced task by its comm",
          names and set(names) == {"rec_seq"}, sorted(set(names)))
    forks = [e for e in ev if e["type"] == "fork" and e["child_tid"] == child]
    check("seq: the fork record names the child by its comm",
          len(forks) == 1 and forks[0]["child_comm"] == "rec_seq", forks)
    wk = [e for e in ev if e["type"] == "wakeup" and e["tid"] in (t0, t1, child)]
    check("seq: wakeups of traced tasks recorded (first wakeup of a new task flagged)",
          any(e["new"] for e in wk), wk[:3])


def check_names(ev, label, allowed, required):
    """Every recorded syscall name is allowed; every required one is there."""
    names = {e["name"] for e in syscalls(ev)}
    allowed = set(allowed.split(",")) if allowed else None
    required = set(required.split(",")) if required else set()
    if allowed is not None:
        check(label + ": only the selected syscalls recorded", names <= allowed,
              sorted(names - allowed))
    check(label + ": the expected syscalls recorded", required <= names,
          sorted(required - names))


def check_absent(ev, label, forbidden):
    names = {e["name"] for e in syscalls(ev)}
    bad = names & set(forbidden.split(","))
    check(label + ": excluded syscalls absent", not bad, sorted(bad))


def check_failed(ev, label):
    sc = syscalls(ev)
    bad = [e for e in sc if not -4095 <= e["ret"] <= -1 or e["noreturn"]]
    check(label + ": only failed syscalls recorded", sc and not bad, bad[:3])
    closes = [e["args"][0] for e in sc if e["name"] == "close"]
    check(label + ": failed markers present", 9000 in closes and 9040 in closes, closes)


def check_nosched(ev, label):
    bad = [e for e in ev if e["type"] in ("switch", "wakeup")]
    check(label + ": no scheduler records", not bad, bad[:2])
    check(label + ": syscalls and lifecycle still recorded",
          syscalls(ev) and [e for e in ev if e["type"] == "fork"] and
          [e for e in ev if e["type"] == "exit"])


def check_forkflags(ev, label, fx):
    f = [e for e in ev if e["type"] == "fork" and e["child_pid"] == fx["child"]]
    check(label + ": fork records keep clone flags when clone is not selected",
          len(f) == 1 and f[0]["clone_flags"] & 0xff == SIGCHLD, f)


def closes(ev, pid=None):
    return [e["args"][0] for e in by_ts(syscalls(ev, pid=pid)) if e["name"] == "close"
            and 9000 <= e["args"][0] < 10000]


def check_attach(ev, label, pid):
    """rec_attach traced from the middle of its life (-p or --comm)."""
    procs = [e for e in ev if e["type"] == "proc" and e["pid"] == pid]
    check(label + ": a proc record names the attached process",
          len(procs) == 1 and procs[0]["comm"] == "rec_attach" and
          "rec_attach" in procs[0]["cmdline"][0], procs)
    c = closes(ev, pid)
    check(label + ": its calls from the attach on (close(9500)... close(9502))",
          len(c) >= 2 and set(c[:-1]) == {9500} and c[-1] == 9502, c[-5:])
    check(label + ": no execve (it was already running)",
          not [e for e in syscalls(ev, pid=pid) if e["name"] == "execve"])
    forks = [e for e in ev if e["type"] == "fork" and e["pid"] == pid]
    check(label + ": the child it creates after the attach is followed",
          len(forks) == 1 and closes(ev, forks[0]["child_pid"]) == [9501], forks)
    if forks:
        exits = {e["pid"]: e for e in ev if e["type"] == "exit"}
        check(label + ": exit records of the process (0) and its child (4)",
              exits.get(pid, {}).get("code") == 0 and
              exits.get(forks[0]["child_pid"], {}).get("code") == 4, exits)
        check(label + ": nothing else recorded",
              {e["pid"] for e in syscalls(ev)} == {pid, forks[0]["child_pid"]})


def check_comm_exec(ev, label, fx):
    """--comm rec_child while rec_seq runs: only the child from its exec."""
    child = fx["child"]
    ex = [e for e in ev if e["type"] == "exec"]
    check(label + ": the exec into the name is recorded",
          len(ex) == 1 and ex[0]["pid"] == child and ex[0]["comm"] == "rec_child", ex)
    check(label + ": its calls after the exec", closes(ev) == [9040], closes(ev))
    check(label + ": the process it came from is not traced",
          {e["pid"] for e in syscalls(ev)} == {child})
    ext = [e for e in ev if e["type"] == "exit" and e["pid"] == child]
    check(label + ": its exit (7)", len(ext) == 1 and ext[0]["code"] == 7, ext)


def check_comm_rename(ev, label, name):
    """--comm NAME with rec_rename NAME: traced from prctl(PR_SET_NAME)."""
    cm = [e for e in ev if e["type"] == "comm"]
    check(label + ": the rename is recorded", len(cm) == 1 and cm[0]["comm"] == name, cm)
    c = [x for x in closes(ev) if x in (9600, 9601, 9602)]
    check(label + ": calls after the rename and in its child, none before",
          sorted(c) == [9601, 9602], c)


def check_unfinished(ev, label, pid):
    """sleep 30 stopped by SIGINT to sonde: its nanosleep never returned."""
    sc = syscalls(ev, pid=pid)
    un = [e for e in sc if e["unfinished"]]
    check(label + ": the blocked call is recorded as unfinished",
          len(un) == 1 and un[0]["name"] in ("clock_nanosleep", "nanosleep") and
          un[0]["args"][0] in (0, 1) and un == by_ts(sc)[-1:], un or by_ts(sc)[-2:])
    check(label + ": no exit record (the command still runs)",
          not [e for e in ev if e["type"] == "exit" and e["pid"] == pid])


def check_partial(ev, label, pid):
    c = closes(ev, pid)
    check(label + ": records up to the last flushed chunk are readable",
          len(c) > 100 and set(c) == {9500}, len(c))


def strace_threads(path):
    """strace -f -o output -> (creation order of pids, {pid: [names]})."""
    import re
    call = re.compile(r"^(\d+) +([a-z0-9_]+)\(")
    resumed = re.compile(r"^(\d+) +<\.\.\. ([a-z0-9_]+) resumed>.*= (-?\d+)")
    done = re.compile(r"^(\d+) +([a-z0-9_]+)\(.*\) += (-?\d+)")
    seqs, order = {}, []
    with open(path) as f:
        for line in f:
            m = call.match(line)
            if m:
                pid, name = int(m.group(1)), m.group(2)
                seqs.setdefault(pid, []).append(name)
                if not order:
                    order.append(pid)
                d = done.match(line)
                if d and name in ("clone", "clone3", "fork", "vfork") and int(d.group(3)) > 0:
                    order.append(int(d.group(3)))
                continue
            m = resumed.match(line)
            if m and m.group(2) in ("clone", "clone3", "fork", "vfork") and int(m.group(3)) > 0:
                order.append(int(m.group(3)))
    return order, seqs


def sonde_threads(ev):
    sc = by_ts(syscalls(ev))
    root = sc[0]["tid"]
    order = [root] + [e["child_tid"] for e in by_ts(ev) if e["type"] == "fork"]
    seqs = {}
    for e in sc:
        seqs.setdefault(e["tid"], []).append(e["name"])
    return order, seqs


# Calls that exist only because an asynchronous signal arrived, whose
# number and place depend on timing (two SIGCHLDs of children exiting close
# together may be delivered once or twice): the only normalisation.
ASYNC_SIGNAL_CALLS = ("rt_sigreturn", "restart_syscall")


def check_diff(ev, label, strace_out):
    """Per-thread syscall name sequences equal strace -f's, threads mapped
    by creation order."""
    so, ss = strace_threads(strace_out)
    do, ds = sonde_threads(ev)
    for seqs in (ss, ds):
        for k in seqs:
            seqs[k] = [n for n in seqs[k] if n not in ASYNC_SIGNAL_CALLS]
    check(label + ": same number of threads/processes as strace -f (%d)" % len(so),
          len(so) == len(do), (so, do))
    for i, (sp, dp) in enumerate(zip(so, do)):
        a, b = ss.get(sp, []), ds.get(dp, [])
        if a != b:
            import difflib
            diff = list(difflib.unified_diff(a, b, "strace", "sonde", n=1, lineterm=""))
        else:
            diff = None
        check(label + ": thread #%d (%d calls) has strace's syscall sequence" % (i, len(a)),
              a == b, diff)


def main():
    what = sys.argv[1]
    try:
        ev = load(sys.argv[2])
    except (OSError, ValueError) as e:
        # A crashed or truncated `sonde print --json` must fail the test,
        # not silently remove its checks from the count.
        print("not ok - record_check.py %s: cannot read %s: %s" % (what, sys.argv[2], e))
        return 1
    if what == "seq":
        check_seq(ev, facts(sys.argv[3]), sys.argv[3], sys.argv[4:] != ["nosched"])
    elif what == "names":
        check_names(ev, sys.argv[3], sys.argv[4], sys.argv[5])
    elif what == "absent":
        check_absent(ev, sys.argv[3], sys.argv[4])
    elif what == "failed":
        check_failed(ev, sys.argv[3])
    elif what == "nosched":
        check_nosched(ev, sys.argv[3])
    elif what == "forkflags":
        check_forkflags(ev, sys.argv[3], facts(sys.argv[4]))
    elif what == "attach":
        check_attach(ev, sys.argv[3], int(open(sys.argv[4]).read()))
    elif what == "comm_exec":
        check_comm_exec(ev, sys.argv[3], facts(sys.argv[4]))
    elif what == "comm_rename":
        check_comm_rename(ev, sys.argv[3], sys.argv[4])
    elif what == "unfinished":
        check_unfinished(ev, sys.argv[3], int(sys.argv[4]))
    elif what == "partial":
        check_partial(ev, sys.argv[3], int(open(sys.argv[4]).read()))
    elif what == "diff":
        check_diff(ev, sys.argv[3], sys.argv[4])
    else:
        print("not ok - record_check.py: unknown check %s" % what)
        return 1
    return failed


if __name__ == "__main__":
    sys.exit(main())
