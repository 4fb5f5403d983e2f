#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Prints a `strace -f -o` log normalised as strace_norm.py does, one
"PROC text" line per call or message, for tests that compare filtered
logs (-P, -e signal=, -q) of strace and sonde with diff.

Processes are named by their place in the process tree when the log
shows the forks (strace_norm.label), and otherwise (-P hides clone) in
order of first appearance: T0, T1, ... --match REGEX keeps the lines
whose text matches; --sort sorts them (signal lines whose place in the
parent's calls is a race).
"""
import argparse
import re
import sys

sys.path.insert(0, __file__.rsplit('/', 1)[0])
import strace_norm  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('log')
    ap.add_argument('--order', action='store_true',
                    help='name processes in order of appearance')
    ap.add_argument('--match')
    ap.add_argument('--sort', action='store_true')
    a = ap.parse_args()
    lines = strace_norm.inodes(strace_norm.parse(a.log))
    if a.order:
        names = {}
        for pid, _ in lines:
            names.setdefault(pid, 'T%d' % len(names))
    else:
        names = strace_norm.label(lines)
    out = []
    for pid, text in lines:
        t = strace_norm.norm(text, names)
        if a.match and not re.search(a.match, t):
            continue
        out.append('%s %s' % (names.get(pid, pid), t))
    if a.sort:
        out.sort()
    print('\n'.join(out))


if __name__ == '__main__':
    main()
