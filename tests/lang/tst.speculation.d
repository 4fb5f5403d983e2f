#pragma D option quiet
/* speculation: committed data prints, discarded data does not. */
BEGIN
{
	self->s = speculation();
	speculate(self->s);
	printf("committed\n");
}

BEGIN
{
	commit(self->s);
	self->d = speculation();
	speculate(self->d);
	printf("discarded\n");
}

BEGIN
{
	discard(self->d);
	printf("done\n");
	exit(0);
}
