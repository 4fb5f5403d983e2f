/* @@cmd lang_work 10 nofork */
/* @@stderr */
#pragma D option quiet
/*
 * Speculate at entry, commit or discard at return: with one buffer
 * (nspec=1), commit() and discard() free it at once for the next read,
 * however late user space reads the commit record.
 */
syscall::read:entry
/pid == $target && arg2 == 64/
{
	n++;
	self->s = speculation();
	speculate(self->s);
	printf("read %d\n", n);
}

syscall::read:return
/self->s && n % 2/
{
	commit(self->s);
	self->s = 0;
}

syscall::read:return
/self->s/
{
	discard(self->s);
	self->s = 0;
}
