/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Signals as strace prints them (libsonde, src/decode/siginfo.c): names,
 * si_code names and the "{si_signo=SIGCHLD, si_code=CLD_EXITED, ...}"
 * form of a siginfo, field for field as strace 6.1 chooses them by signal
 * and code. Shared by the renderers (render_text.c, render_json.c, ...)
 * and the strace decoders.
 */
#ifndef SONDE_SIGNAL_H
#define SONDE_SIGNAL_H

#include <stddef.h>
#include <linux/types.h>
#include <sonde/events.h>

/* "SIGCHLD", "SIGRTMIN" (32), "SIGRT_2" (34); NULL when sig has no name.
 * buf (>= 16 bytes) backs the real-time names. */
const char *sonde_sig_name(int sig, char *buf, size_t len);
/* "CLD_EXITED", "SI_USER", ...; NULL when strace knows no name. */
const char *sonde_si_code_name(int signo, int code);
/* "delivered", "ignored", "already_pending", "overflow_fail",
 * "lose_info"; NULL for other values. */
const char *sonde_sig_result_name(int result);
/* Writes strace's "{si_signo=..., ...}" for si into buf (NUL-terminated,
 * truncated to len); returns the length it needed, as snprintf does. */
size_t sonde_siginfo_format(char *buf, size_t len, const struct sonde_siginfo *si);
/* The same in strace's -X style xlat (enum sonde_xlat_style: 0 names, 1
 * numbers, 2 numbers with the names in comments). */
size_t sonde_siginfo_format_x(char *buf, size_t len, const struct sonde_siginfo *si, int xlat);
/* The same, after_pid (when not NULL) printed right after si_pid's value:
 * strace -Y's "<comm>". */
size_t sonde_siginfo_format_pid(char *buf, size_t len, const struct sonde_siginfo *si, int xlat,
				const char *after_pid);
/* The same fields as JSON members, each preceded by a comma:
 * ,"si_pid":N,"si_uid":N,... (the fields strace would print). */
size_t sonde_siginfo_json(char *buf, size_t len, const struct sonde_siginfo *si);

#endif /* SONDE_SIGNAL_H */
