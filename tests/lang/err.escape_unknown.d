/* D refuses unknown escapes rather than keeping the character. */
BEGIN
{
	printf("a\qb\n");
	exit(0);
}
