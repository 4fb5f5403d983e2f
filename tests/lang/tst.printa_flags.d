#pragma D option quiet
/* printa: '@' is a flag anywhere among flags, width and precision, and
 * takes any integer conversion (the DTrace Guide's "%@8u"). */
BEGIN
{
	@a["x"] = sum(255);
	printa("[%s][%@10d][%@-8d][%-8@d][%@x][%@8u][%@#o][%@]\n", @a);
	trunc(@a);
	exit(0);
}
