#pragma D option quiet
/* profile-N samples every CPU; tick-N fires on one. */
profile-997 { n++; }
tick-50ms { t++; }
tick-300ms
{
	printf("%d %d\n", n > 0, t >= 2);
	exit(0);
}
