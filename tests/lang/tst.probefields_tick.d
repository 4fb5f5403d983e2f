/* @@sort */
#pragma D option quiet
/* probename in a clause on several tick probes (one program each). */
BEGIN
{
	seen["(a key as wide as any probe name)"] = 0;
}

tick-10ms, tick-15ms
/!seen[probename]/
{
	seen[probename] = 1;
	printf("%s %s\n", probeprov, probename);
}

tick-200ms
{
	exit(0);
}
