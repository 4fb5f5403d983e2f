/* @@cmd lang_work 1 */
#pragma D option quiet
BEGIN { done = 0; }

/* Built-in variables in a syscall probe. */
syscall::close:entry
/pid == $target && !done/
{
	printf("%d %d %d %d\n", pid == $target, tid == pid, ppid > 0, uid == 0);
	printf("%d %d %d\n", gid == 0, cpu < 4096, timestamp > 0);
	printf("%d %d\n", walltimestamp > 1600000000000000000, vtimestamp > 0);
	printf("%s %s:%s:%s:%s\n", execname, probeprov, probemod, probefunc, probename);
	printf("%d %s\n", curthread->pid == tid, curthread->comm);
	done = 1;
}
