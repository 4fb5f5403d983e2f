#pragma D option quiet
/*
 * An address no kernel symbol covers prints in hex, as in DTrace, not as
 * the last symbol in /proc/kallsyms plus a huge offset: -1 lies past every
 * symbol, 0 before the first. Symbols found are checked in tst.symbols.d.
 */
BEGIN
{
	printf("%a|%a|%s|%s|%s\n", -1, 0, sym(-1), func(-1), mod(-1));
	@k[-1] = count();
	@s[sym(-1)] = count();
	exit(0);
}

END
{
	printa("%a %@d\n", @k);
	printa(@s);
}
