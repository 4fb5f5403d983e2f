/* @@cmd lang_work 2 */
/* @@stderr */
/* @@norm s/ID [0-9]+/ID N/g */
#pragma D option quiet
/* A fault in a clause serving several syscalls names the probe that fired;
 * the ERROR clause runs in the faulting thread (execname) and its arg1 is
 * the epid that clause saw. */
syscall::write:entry, syscall::read:entry
/pid == $target/
{
	if (probefunc == "read")
		r = epid;
	else
		w = epid;
	this->p = (struct list_head *)0;
	trace(this->p->next);
}

ERROR
{
	@[execname, arg1 == w ? "write" : arg1 == r ? "read" : "?"] = count();
}
