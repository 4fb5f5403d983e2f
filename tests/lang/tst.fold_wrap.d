#pragma D option quiet
/* constants fold with the wrap-around of the BPF arithmetic */
BEGIN
{
	printf("%d\n", 9223372036854775807 + 1);
	printf("%d\n", -9223372036854775808);
	printf("%d\n", -(-9223372036854775807 - 1));
	printf("%d\n", (-9223372036854775807 - 1) - 1);
	printf("%d\n", 9223372036854775807 * 2);
	exit(0);
}
