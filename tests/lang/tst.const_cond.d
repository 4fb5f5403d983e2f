#pragma D option quiet
/* @@args 0 */
/* Constant conditions: the arm or clause never taken is left out of the
 * program (the verifier rejects unreachable instructions). */
BEGIN /0/
{
	printf("never\n");
}

BEGIN /1 && 0/
{
	printf("never\n");
}

BEGIN /$1/
{
	printf("never\n");
}

BEGIN
{
	printf("%d %d\n", 1 ? 2 : 3, 0 ? 2 : 3);
	if (1) {
		printf("a\n");
	} else {
		printf("b\n");
	}
	if (0) {
		printf("c\n");
	} else {
		printf("d\n");
	}
	if (0)
		printf("e\n");
	exit(0);
}
