#pragma D option quiet
/* trunc(@a, -n) keeps the n smallest values (DTrace), trunc(@a, n) the
 * n largest; |n| at least the entry count keeps them all. */
BEGIN
{
	@b[1] = sum(1); @b[2] = sum(2); @b[3] = sum(3); @b[4] = sum(4);
	trunc(@b, -5);
	printa("%d=%@d\n", @b);
	trunc(@b, -3);
	printa("%d=%@d\n", @b);
	trunc(@b, 2);
	printa("%d=%@d\n", @b);
	trunc(@b, -1);
	printa("%d=%@d\n", @b);
	exit(0);
}
