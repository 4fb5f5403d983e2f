/* @@cmd lang_work 2 */
#pragma D option quiet
/* Arguments on entry, read at return when the kernel has faulted the
 * path in; args[] typed from tracefs (args[1] is a user char *). */
syscall::openat:entry
/pid == $target/
{
	self->path = args[1];
	self->dfd = args[0];
}

syscall::openat:return
/self->path && basename(copyinstr(self->path)) == "hostname"/
{
	printf("%s %d %d\n", copyinstr(self->path), self->dfd < 0, arg0 >= 0);
}

syscall::openat:return
/self->path/
{
	self->path = 0;
}
