/* @@cmd lang_work 3 */
#pragma D option quiet
/* Symbolised addresses, as DTrace prints them: %A, usym(), ufunc(),
 * umod(), uaddr() for user addresses (ELF symbols through the process's
 * mappings), sym(), func(), mod() and %a for kernel ones (/proc/kallsyms).
 * As aggregation keys, addresses inside one function (module) merge.
 * lang_work_cb is called once with the address of lang_work_leaf. */
pid$target:a.out:lang_work_cb:entry
{
	printf("%A|%s|%s|%s|%A\n", arg0, usym(arg0), umod(arg0), uaddr(arg0 + 2), arg0 + 3);
	@f[ufunc(arg0)] = count();
	@f[ufunc(arg0 + 1)] = count();
	@m[umod(arg0 + 4)] = count();
	@a[uaddr(arg0 + 1)] = count();
}

BEGIN { self->done = 0; }

syscall::write:entry
/pid == $target && !self->done/
{
	this->f = (uint64_t)curthread->sched_class->enqueue_task;
	printf("%s|%s|%s|%a\n", func(this->f), sym(this->f), mod(this->f), this->f + 1);
	self->done = 1;
}
