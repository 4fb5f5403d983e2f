#pragma D option quiet
/* printa with and without a format; clear, trunc, normalize, denormalize.
 * @c was printed by printa(): END does not print it again (DTrace). */
BEGIN
{
	@c["a"] = sum(10); @c["b"] = sum(30); @c["c"] = sum(20);
	printa(@c);
	printa("%s=%@d\n", @c);
	normalize(@c, 10);
	printa("%s=%@d\n", @c);
	denormalize(@c);
	trunc(@c, 2);
	printa("%s=%@d\n", @c);
	clear(@c);
	printa("%s=%@d\n", @c);
	trunc(@c);
	exit(0);
}

END
{
	@c["z"] = sum(1);
}
