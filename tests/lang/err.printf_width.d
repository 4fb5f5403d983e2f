/* A width the C library cannot print (beyond INT_MAX) dropped the value:
 * widths and precisions are at most 4096. */
BEGIN
{
	printf("%99999999999d\n", 1);
	exit(0);
}
