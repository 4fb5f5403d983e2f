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
}

/* commit() freed the only buffer (nspec=1): it serves again at once */
BEGIN
{
	self->d = speculation();
	speculate(self->d);
	printf("discarded\n");
}

BEGIN
{
	discard(self->d);
	printf("done %d\n", self->d != 0);
	exit(0);
}
