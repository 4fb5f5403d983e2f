/* SPDX-License-Identifier: GPL-2.0 */
/*
 * execve/execveat argv strings (and execve's path) the recorder could not
 * read at entry, taken from the exec record the call produced.
 *
 * The recorder reads user memory without faulting (bpf/capture.bpf.h). A
 * string literal of a freshly forked child sits in a page its page tables
 * do not map yet (fork does not copy them for file-backed mappings), so
 * the read fails; other calls are read again at exit, but execve returns
 * in a new address space. The kernel copied those very strings onto the
 * new program's stack, and the exec record (bpf/exec.h) holds them, NUL
 * separated:
 *
 *   syscall  execve(path, argv = 0x7ffc..., envp)  ts = entry, dur
 *     payload  entry, argv array  [0x5651...02c, 0x5651...03c, 0x5651...036, 0]
 *     payload  entry, 0x5651...02c  unreadable
 *     ...
 *   exec     tid, old_tid, argc = 3, "path\0" "rec_child\0hello\0world\0"
 *            (ts between the call's entry and its exit)
 *
 * Element i of the array gets string i of the record, as a payload at the
 * element's address flagged SONDE_PLF_EXEC, when everything says the
 * record is this call's: the call succeeded, same process and thread
 * (old_tid: a non-leader thread that execs becomes the leader), the exec
 * happened during the call, and argc equals the array's length (an
 * interpreter, #! or binfmt_misc, adds arguments). Strings the trace does
 * hold must equal the record's, else nothing is substituted. execve's
 * path, when unreadable, is the record's filename the same way (the
 * kernel's copy of the string the call passed; execveat's is rebuilt from
 * its descriptor, so not substituted).
 */
#ifndef SONDE_STRACE_EXECARGV_H
#define SONDE_STRACE_EXECARGV_H

#include <sonde/strace.h>

/* A successful execve/execveat: its group waits for the exec record. */
int execargv_wanted(const struct sonde_ev_syscall *sc);
/* exec (any record) is the exec record call sc produced. */
int execargv_match(const struct sonde_ev_syscall *sc, const struct sonde_hdr *exec);
/*
 * Writes to out (cap entries) one payload per argv element the trace
 * lacks or marks unreadable, its bytes pointing into exec; returns how
 * many. Callers put them before c's payloads, so lookups find them first.
 */
unsigned int execargv_fill(const struct sonde_call *c, const struct sonde_hdr *exec,
			   struct sonde_payload *out, unsigned int cap);

#endif
