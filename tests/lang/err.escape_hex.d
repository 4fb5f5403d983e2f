/* "\x" needs at least one hex digit. */
BEGIN
{
	printf("%s\n", "a\xg");
	exit(0);
}
