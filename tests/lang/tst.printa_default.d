#pragma D option quiet
/* Only aggregations no printa() printed print at exit, as in DTrace:
 * @f is formatted, @p has a printa() that never runs, @d has none. */
BEGIN
{
	@f["read"] = count();
	@p["never"] = count();
	@d["default"] = count();
	exit(0);
}

BEGIN
/pid == 0/
{
	printa(@p);
}

END
{
	printa("%-10s %@d\n", @f);
}
