/* exit() is never speculative: a discard() would swallow it */
BEGIN
{
	self->s = speculation();
	speculate(self->s);
	exit(0);
}
