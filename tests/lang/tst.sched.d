/* @@cmd lang_work 2 */
#pragma D option quiet
/* sched provider: the target goes off and on CPU and is woken. */
sched:::off-cpu /pid == $target/ { off++; }
sched:::on-cpu /pid == $target/ { on++; }
sched:::wakeup /args[1] == $target/ { woken++; }
END
{
	printf("%d %d %d\n", off > 0, on > 0, woken > 0);
}
