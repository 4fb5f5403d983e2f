/* @@cmd lang_work 0 vtime */
#pragma D option quiet
/* vtimestamp counts only the thread's time on a CPU (sched-switch
 * bookkeeping): the fixture spins 50 ms then sleeps 100 ms. */
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
	printf("cpu 45..90 ms: %d, wall >= 145 ms: %d, cpu < wall: %d\n",
	    this->cpu >= 45 && this->cpu < 90, this->wall >= 145, this->cpu < this->wall);
}
