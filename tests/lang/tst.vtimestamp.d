/* @@cmd lang_work 0 vtime */
#pragma D option quiet
/* vtimestamp counts only the thread's time on a CPU (sched-switch
 * bookkeeping): the fixture spins 50 ms then sleeps 100 ms. The spin is
 * 50 ms of the kernel's CPU-time account (CLOCK_THREAD_CPUTIME_ID), and on
 * this VM under CPU contention the sum of its on-CPU intervals, as
 * sched_switch timestamps bound them, has come out as low as 33 ms (bpftrace
 * summing the same intervals agreed), hence the wide lower bound. The sleep
 * must not count: wall - cpu covers it. */
proc:::exec-success
/pid == $target/
{
	self->v = vtimestamp;
	self->t = timestamp;
}

syscall::exit_group:entry
/pid == $target && self->t/
{
	this->cpu = (vtimestamp - self->v) / 1000000;
	this->wall = (timestamp - self->t) / 1000000;
	printf("cpu 20..90 ms: %d, wall >= 145 ms: %d, wall - cpu >= 90 ms: %d\n",
	    this->cpu >= 20 && this->cpu < 90, this->wall >= 145, this->wall - this->cpu >= 90);
}
