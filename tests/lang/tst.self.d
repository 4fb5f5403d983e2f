/* @@cmd lang_work 6 */
/* self-> thread-local variables carry state from entry to return. */
syscall::read:entry
/pid == $target && execname == "lang_work"/
{
	self->fd = arg0;
}

syscall::read:return
/self->fd/
{
	@reads = count();
	self->fd = 0;
}
