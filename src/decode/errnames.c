// SPDX-License-Identifier: GPL-2.0
/*
 * errno and signal names, spelt as strace prints them: the canonical name
 * of aliased codes (EAGAIN not EWOULDBLOCK, EDEADLK not EDEADLOCK,
 * EOPNOTSUPP not ENOTSUP), the kernel-internal codes above 511 that leak
 * to the syscall exit tracepoint when a signal interrupts a call, and
 * real-time signals as SIGRT_N counted from the kernel's SIGRTMIN (32).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <sonde/syscalls.h>

#define E(x) [x] = #x
static const char *const errno_names[] = {
	E(EPERM),
	E(ENOENT),
	E(ESRCH),
	E(EINTR),
	E(EIO),
	E(ENXIO),
	E(E2BIG),
	E(ENOEXEC),
	E(EBADF),
	E(ECHILD),
	E(EAGAIN),
	E(ENOMEM),
	E(EACCES),
	E(EFAULT),
	E(ENOTBLK),
	E(EBUSY),
	E(EEXIST),
	E(EXDEV),
	E(ENODEV),
	E(ENOTDIR),
	E(EISDIR),
	E(EINVAL),
	E(ENFILE),
	E(EMFILE),
	E(ENOTTY),
	E(ETXTBSY),
	E(EFBIG),
	E(ENOSPC),
	E(ESPIPE),
	E(EROFS),
	E(EMLINK),
	E(EPIPE),
	E(EDOM),
	E(ERANGE),
	E(EDEADLK),
	E(ENAMETOOLONG),
	E(ENOLCK),
	E(ENOSYS),
	E(ENOTEMPTY),
	E(ELOOP),
	E(ENOMSG),
	E(EIDRM),
	E(ECHRNG),
	E(EL2NSYNC),
	E(EL3HLT),
	E(EL3RST),
	E(ELNRNG),
	E(EUNATCH),
	E(ENOCSI),
	E(EL2HLT),
	E(EBADE),
	E(EBADR),
	E(EXFULL),
	E(ENOANO),
	E(EBADRQC),
	E(EBADSLT),
	E(EBFONT),
	E(ENOSTR),
	E(ENODATA),
	E(ETIME),
	E(ENOSR),
	E(ENONET),
	E(ENOPKG),
	E(EREMOTE),
	E(ENOLINK),
	E(EADV),
	E(ESRMNT),
	E(ECOMM),
	E(EPROTO),
	E(EMULTIHOP),
	E(EDOTDOT),
	E(EBADMSG),
	E(EOVERFLOW),
	E(ENOTUNIQ),
	E(EBADFD),
	E(EREMCHG),
	E(ELIBACC),
	E(ELIBBAD),
	E(ELIBSCN),
	E(ELIBMAX),
	E(ELIBEXEC),
	E(EILSEQ),
	E(ERESTART),
	E(ESTRPIPE),
	E(EUSERS),
	E(ENOTSOCK),
	E(EDESTADDRREQ),
	E(EMSGSIZE),
	E(EPROTOTYPE),
	E(ENOPROTOOPT),
	E(EPROTONOSUPPORT),
	E(ESOCKTNOSUPPORT),
	E(EOPNOTSUPP),
	E(EPFNOSUPPORT),
	E(EAFNOSUPPORT),
	E(EADDRINUSE),
	E(EADDRNOTAVAIL),
	E(ENETDOWN),
	E(ENETUNREACH),
	E(ENETRESET),
	E(ECONNABORTED),
	E(ECONNRESET),
	E(ENOBUFS),
	E(EISCONN),
	E(ENOTCONN),
	E(ESHUTDOWN),
	E(ETOOMANYREFS),
	E(ETIMEDOUT),
	E(ECONNREFUSED),
	E(EHOSTDOWN),
	E(EHOSTUNREACH),
	E(EALREADY),
	E(EINPROGRESS),
	E(ESTALE),
	E(EUCLEAN),
	E(ENOTNAM),
	E(ENAVAIL),
	E(EISNAM),
	E(EREMOTEIO),
	E(EDQUOT),
	E(ENOMEDIUM),
	E(EMEDIUMTYPE),
	E(ECANCELED),
	E(ENOKEY),
	E(EKEYEXPIRED),
	E(EKEYREVOKED),
	E(EKEYREJECTED),
	E(EOWNERDEAD),
	E(ENOTRECOVERABLE),
	E(ERFKILL),
	E(EHWPOISON),
};
#define NERRNO (int)(sizeof(errno_names) / sizeof(errno_names[0]))

/*
 * include/linux/errno.h: never meant for user space, but the sys_exit
 * tracepoint sees them (a read interrupted by a signal exits with
 * ERESTARTSYS before the kernel turns it into EINTR or a restart).
 */
#define KERNEL_ERRNO_BASE 512
static const struct {
	const char *name;
	const char *text; /* strace's wording; NULL = strerror() */
} kernel_errnos[] = {
	{ "ERESTARTSYS", "To be restarted if SA_RESTART is set" },
	{ "ERESTARTNOINTR", "To be restarted" },
	{ "ERESTARTNOHAND", "To be restarted if no handler" },
	{ "ENOIOCTLCMD", NULL },
	{ "ERESTART_RESTARTBLOCK", "Interrupted by signal" },
	{ "EPROBE_DEFER", NULL },
	{ "EOPENSTALE", NULL },
	{ "ENOPARAM", NULL },
	{ NULL, NULL }, /* 520 is unused */
	{ "EBADHANDLE", NULL },
	{ "ENOTSYNC", NULL },
	{ "EBADCOOKIE", NULL },
	{ "ENOTSUPP", NULL },
	{ "ETOOSMALL", NULL },
	{ "ESERVERFAULT", NULL },
	{ "EBADTYPE", NULL },
	{ "EJUKEBOX", NULL },
	{ "EIOCBQUEUED", NULL },
	{ "ERECALLCONFLICT", NULL },
	{ "ENOGRACE", NULL },
};
#define NKERNEL_ERRNO (int)(sizeof(kernel_errnos) / sizeof(kernel_errnos[0]))

const char *sonde_errno_name(int err)
{
	if (err > 0 && err < NERRNO)
		return errno_names[err];
	if (err >= KERNEL_ERRNO_BASE && err < KERNEL_ERRNO_BASE + NKERNEL_ERRNO)
		return kernel_errnos[err - KERNEL_ERRNO_BASE].name;
	return NULL;
}

int sonde_errno_is_restart(int err)
{
	return err == 512 || err == 513 || err == 514 || err == 516;
}

const char *sonde_errno_text(int err, char *buf, size_t len)
{
	if (err >= KERNEL_ERRNO_BASE && err < KERNEL_ERRNO_BASE + NKERNEL_ERRNO &&
	    kernel_errnos[err - KERNEL_ERRNO_BASE].text)
		return kernel_errnos[err - KERNEL_ERRNO_BASE].text;
	/* strerror_r (GNU) returns a string, possibly not buf; never NULL. */
	return strerror_r(err, buf, len);
}

int sonde_errno_lookup(const char *name)
{
	for (int i = 1; i < NERRNO; i++)
		if (errno_names[i] && !strcmp(errno_names[i], name))
			return i;
	for (int i = 0; i < NKERNEL_ERRNO; i++)
		if (kernel_errnos[i].name && !strcmp(kernel_errnos[i].name, name))
			return KERNEL_ERRNO_BASE + i;
	return -1;
}

#define SG(x) [x] = #x
static const char *const signal_names[] = {
	SG(SIGHUP),  SG(SIGINT),    SG(SIGQUIT), SG(SIGILL),	SG(SIGTRAP), SG(SIGABRT),
	SG(SIGBUS),  SG(SIGFPE),    SG(SIGKILL), SG(SIGUSR1),	SG(SIGSEGV), SG(SIGUSR2),
	SG(SIGPIPE), SG(SIGALRM),   SG(SIGTERM), SG(SIGSTKFLT), SG(SIGCHLD), SG(SIGCONT),
	SG(SIGSTOP), SG(SIGTSTP),   SG(SIGTTIN), SG(SIGTTOU),	SG(SIGURG),  SG(SIGXCPU),
	SG(SIGXFSZ), SG(SIGVTALRM), SG(SIGPROF), SG(SIGWINCH),	SG(SIGIO),   SG(SIGPWR),
	SG(SIGSYS),
};
#define NSIGNAMES (int)(sizeof(signal_names) / sizeof(signal_names[0]))

/* The kernel's SIGRTMIN and _NSIG on x86-64 (glibc's SIGRTMIN is 34). */
#define KSIGRTMIN 32
#define KNSIG 64
#define RT(n) "SIGRT_" #n
static const char *const rt_names[KNSIG - KSIGRTMIN + 1] = {
	RT(0),	RT(1),	RT(2),	RT(3),	RT(4),	RT(5),	RT(6),	RT(7),	RT(8),	RT(9),	RT(10),
	RT(11), RT(12), RT(13), RT(14), RT(15), RT(16), RT(17), RT(18), RT(19), RT(20), RT(21),
	RT(22), RT(23), RT(24), RT(25), RT(26), RT(27), RT(28), RT(29), RT(30), RT(31), RT(32),
};

const char *sonde_signal_name(int sig)
{
	if (sig > 0 && sig < NSIGNAMES)
		return signal_names[sig];
	if (sig >= KSIGRTMIN && sig <= KNSIG)
		return rt_names[sig - KSIGRTMIN];
	return NULL;
}

int sonde_signal_lookup(const char *name)
{
	if (!strncasecmp(name, "SIG", 3))
		name += 3;
	for (int i = 1; i < NSIGNAMES; i++)
		if (signal_names[i] && !strcasecmp(signal_names[i] + 3, name))
			return i;
	for (int i = 0; i <= KNSIG - KSIGRTMIN; i++)
		if (!strcasecmp(rt_names[i] + 3, name))
			return KSIGRTMIN + i;
	/* strace's other name of the first one */
	if (!strcasecmp(name, "RTMIN"))
		return KSIGRTMIN;
	return -1;
}
