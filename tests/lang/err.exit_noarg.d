/* exit() takes one integer argument, the status, as in DTrace. */
BEGIN
{
	exit();
}
