#pragma D option quiet
/* trace() when quiet prints the bare value, no separator (as dtrace -q). */
BEGIN
{
	trace(42);
	trace(" ");
	trace("text");
	trace(" ");
	trace(-1);
	trace("\n");
	exit(0);
}
