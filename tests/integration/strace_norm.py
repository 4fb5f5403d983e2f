#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compares a `strace -f -o` log with a `sonde strace -f -o` log.

Normalised only for what must differ between two runs: process ids (named
after their place in the process tree: P0, P0c0, ...), addresses, the
alignment padding that depends on their length, time values, the inode
numbers -y and -yy show (pipe:[N], socket:[N], UNIX-STREAM:[N->M]): each
file's numbers are renamed I1, I2, ... in the order they first appear,
so the same inode is the same name on both sides; System V IPC ids the
same way (the kernel allocates them cyclically: each run gets new ones),
and the highest index in use IPC_INFO returns; and the split of
concurrent calls into <unfinished ...>/<... resumed>, joined on both
sides. Both tracers split by the same rule (a line of another task
printed between a call's entry and exit), but which calls overlap is
timing: under strace every call is a ptrace stop and the tasks run
nearly in turn, under sonde they run on both CPUs at full speed (without
the join, 21700 of 23583 lines matched, most unmatched lines being the
same call split in one log and whole in the other).
tests/integration/strace_split.sh checks the split itself where the
interleaving is fixed. Per process, the call sequences are aligned
(difflib) and matched lines counted. Prints "MATCH matched total" and the
unmatched lines of both sides.
"""
import difflib
import re
import sys

# -Y puts the task's name after the pid: "1234<sh> ", kept before the text.
LINE = re.compile(r'^(\d+)(<[^>]*>)?\s+(.*)$')
# -Y's name, then -n's "[ NR] " and -i's "[IP] ", before the call.
NR = r'(?:<[^>]*> )?(?:\[\s*\d+\] )?(?:\[[0-9a-f?]{8,16}\] )?'
FORK = re.compile(r'^' + NR + r'(clone3?|fork|vfork)\(.*\)\s+= (\d+)(?:<[^>]*>)?$')


def parse(path):
    pending, out = {}, []
    with open(path, errors='replace') as f:
        for raw in f:
            m = LINE.match(raw.rstrip('\n'))
            if not m:
                continue
            pid, text = int(m.group(1)), m.group(3)
            if m.group(2):
                text = m.group(2) + ' ' + text
            if text.endswith(' <unfinished ...>'):
                pending[pid] = text[:-len(' <unfinished ...>')]
                continue
            r = re.match(r'^' + NR + r'<\.\.\. \S+ resumed>(.*)$', text)
            if r:
                text = pending.pop(pid, '') + r.group(1)
            out.append((pid, text))
    for pid, text in pending.items():
        out.append((pid, text + ' <unfinished ...>'))
    return out


# pipe:[N], socket:[N], and -yy's UNIX-STREAM:[N->M,...], UDP:[N].
INODE = re.compile(r'<([A-Za-z][\w-]*):\[(\d+)(?:->(\d+))?(?=[\],])')


def inodes(lines):
    seen = {}

    def ino(n):
        return seen.setdefault(n, 'I%d' % (len(seen) + 1))

    def name(m):
        peer = '->' + ino(m.group(3)) if m.group(3) else ''
        return '<%s:[%s%s' % (m.group(1), ino(m.group(2)), peer)
    return [(pid, INODE.sub(name, text)) for pid, text in lines]


IPC_GET = re.compile(r'^' + NR + r'(?:shm|msg|sem)get\(.*\)\s+= (\d+)$')
IPC_USE = re.compile(r'^(' + NR + r'(?:shm|msg|sem)(?:ctl|at|op|timedop|snd|rcv)\()(-?\d+)(.*?)(?:= (\d+))?$')


def ipc_ids(lines):
    seen = {}
    out = []
    for pid, text in lines:
        m = IPC_GET.match(text)
        if m:
            seen.setdefault(m.group(1), 'IPC%d' % (len(seen) + 1))
            text = text[:m.start(1)] + seen[m.group(1)]
        m = IPC_USE.match(text)
        if m:
            ret = m.group(4)
            # the command as -X abbrev or -X verbose shows it
            if ret is not None and re.search(r', (0x\w+ /\* )?(IPC|SHM|MSG|SEM)_INFO( \*/)?, ', m.group(3)):
                ret = 'IDX'
            # SHM_STAT and the like return an id; IPC_STAT returns 0,
            # which is an id too on a machine whose first one it is
            elif ret is not None and not re.search(r', (0x\w+ /\* )?(SHM|MSG|SEM)_STAT(_ANY)?( \*/)?, ', m.group(3)):
                ret = None
            text = m.group(1) + seen.get(m.group(2), m.group(2)) + m.group(3)
            if ret is not None:
                text += '= ' + seen.get(ret, ret)
            elif m.group(4) is not None:
                text += '= ' + m.group(4)
        out.append((pid, text))
    return out


LOOP_FREE = re.compile(r'ioctl\(.*(?:LOOP_CTL_GET_FREE|0x4c82)(?: \*/)?\)\s+= (\d+)$')
LOOP_CTL = re.compile(r'ioctl\(.*(?:LOOP_CTL_\w+|0x4c8[01])(?: \*/)?, ')
LOOP_ADD = re.compile(r'ioctl\(.*(?:LOOP_CTL_ADD|0x4c80)(?: \*/)?, ')


def loop_ids(lines):
    """The loop device LOOP_CTL_GET_FREE hands out depends on the devices
    earlier runs left behind: its number becomes L, in the device's name,
    its lo_number and the LOOP_CTL_ requests that take or return it."""
    n = next((m.group(1) for _, t in lines for m in [LOOP_FREE.search(t)] if m), None)
    if n is None:
        return lines
    out = []
    for pid, text in lines:
        text = re.sub(r'\bloop%s\b' % n, 'loopL', text)
        text = re.sub(r'\blo_number=%s\b' % n, 'lo_number=L', text)
        if LOOP_CTL.search(text):
            text = re.sub(r', %s\)' % n, ', L)', text)
        # the requests that return it (LOOP_CTL_REMOVE returns 0)
        if LOOP_FREE.search(text) or LOOP_ADD.search(text):
            text = re.sub(r'= %s$' % n, '= L', text)
        out.append((pid, text))
    return out


KEY_CALL = re.compile(r'^' + NR + r'(?:add_key|request_key|keyctl)\(')
KEY_RET = re.compile(r'\)\s+= (\d{4,})$')


def key_ids(lines):
    """Key serial numbers are random: the ones calls return become KEYn,
    in the calls that return them and in those that name them after."""
    seen = {}
    out = []
    for pid, text in lines:
        if KEY_CALL.match(text):
            m = KEY_RET.search(text)
            if m:
                seen.setdefault(m.group(1), 'KEY%d' % (len(seen) + 1))
            text = re.sub(r'\b\d{4,}\b', lambda n: seen.get(n.group(0), n.group(0)), text)
        out.append((pid, text))
    return out


def label(lines):
    names, kids = {}, {}
    for pid, text in lines:
        if pid not in names:
            names[pid] = 'P%d' % len(names) if not names else 'X%d' % pid
        m = FORK.match(re.sub(r'\s+= ', ' = ', text))
        if m and int(m.group(2)) > 0:
            n = kids.get(pid, 0)
            kids[pid] = n + 1
            names[int(m.group(2))] = '%sc%d' % (names[pid], n)
    return names


def norm(text, names):
    # A perf event's id, from a counter global to the machine (-X raw:
    # the request by number).
    text = re.sub(r'((?:PERF_EVENT_IOC_ID|0x80082407)(?: \*/)?, )\[\d+\]', r'\1[ID]', text)
    text = re.sub(r'0x[0-9a-f]{6,}', '0xADDR', text)
    text = re.sub(r'\s+= ', ' = ', text)
    text = re.sub(r'(tv_sec|tv_nsec|tv_usec)=\d+', r'\1=N', text)
    text = re.sub(r'\b((?:shm|msg|sem)_[a-z]time)=[1-9]\d*', r'\1=N', text)
    # CPU time of a child (SIGCHLD): strace's slowed-down children use more.
    text = re.sub(r'(si_utime|si_stime)=\d+( /\* [0-9.]+ s \*/)?', r'\1=N', text)
    text = re.sub(r'getrandom\("[^"]*"', 'getrandom("RANDOM"', text)
    # Machine state sampled at two different moments.
    text = re.sub(r'^((?:<[^>]*> )?)sysinfo\(\{.*\}\)', r'\1sysinfo({STATE})', text)
    text = re.sub(r'(f_bfree|f_bavail|f_ffree)=\d+', r'\1=N', text)
    # The tracer itself is the traced command's parent.
    text = re.sub(r'^(<[^>]*> )?getppid\(\) = \d+(<[^>]*>)?$', r'\1getppid() = TRACER', text)
    # -Y: the tracer's name (its child's before the first execve).
    text = re.sub(r'<(strace|sonde)>', '<TRACER>', text)
    for pid, name in names.items():
        text = re.sub(r'\b%d\b' % pid, name, text)
    return text


def seqs(lines):
    names = label(lines)
    by = {}
    for pid, text in lines:
        by.setdefault(names.get(pid, str(pid)), []).append(norm(text, names))
    return by


def normalised(path):
    """A log's normalised call sequences, by process."""
    return seqs(loop_ids(key_ids(ipc_ids(inodes(parse(path))))))


def main():
    a = normalised(sys.argv[1])
    b = normalised(sys.argv[2])
    matched = total = 0
    diffs = []
    for who, sa in a.items():
        sb = b.get(who, [])
        sm = difflib.SequenceMatcher(None, sa, sb, autojunk=False)
        blocks = sm.get_matching_blocks()
        matched += sum(x.size for x in blocks)
        total += len(sa)
        for op, i1, i2, j1, j2 in sm.get_opcodes():
            if op == 'equal':
                continue
            diffs += ['- %s %s' % (who, x) for x in sa[i1:i2]]
            diffs += ['+ %s %s' % (who, x) for x in sb[j1:j2]]
    for who, sb in b.items():
        if who not in a:
            diffs += ['+ %s %s' % (who, x) for x in sb]
    print('MATCH %d %d' % (matched, total))
    for d in diffs:
        print(d)


if __name__ == '__main__':
    main()
