/* @@cmd lang_work 2 nofork */
/* @@sort */
#pragma D option quiet
/* probemod, probefunc and probename in clauses covering several probes,
 * for every provider: each probe's own names, as in DTrace. */
BEGIN
{
	seen["(a key as wide as any probe name)"] = 0;
}

pid$target:a.out:lang_work_*:entry
/!seen[probefunc]/
{
	seen[probefunc] = 1;
	printf("pid %s %s %s\n", probemod, probefunc, probename);
}

tracepoint:syscalls:sys_enter_write, tracepoint:syscalls:sys_exit_write
/pid == $target && !seen[probefunc]/
{
	seen[probefunc] = 1;
	printf("%s %s %s\n", probeprov, probemod, probefunc);
}

syscall::write:entry, syscall::getppid:entry, syscall::write:return
/pid == $target && !seen[strjoin(probefunc, probename)]/
{
	seen[strjoin(probefunc, probename)] = 1;
	printf("%s %s %s\n", probeprov, probefunc, probename);
}

sched:::on-cpu, sched:::off-cpu
/pid == $target && !seen[probename]/
{
	seen[probename] = 1;
	printf("%s %s\n", probeprov, probename);
}

proc:::exec-success, proc:::exit
/pid == $target/
{
	printf("%s %s\n", probeprov, probename);
}
