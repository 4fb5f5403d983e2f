/* trace() prints one value per line. */
BEGIN
{
	trace(42);
	trace("text");
	trace(-1);
	exit(0);
}
