#pragma D option quiet
/* BEGIN runs once; exit() stops tracing with a status. */
BEGIN
{
	printf("hello\n");
	exit(0);
}
