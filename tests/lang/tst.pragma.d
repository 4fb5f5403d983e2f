#pragma D option quiet
#pragma D option strsize=16
/* #pragma D option sets -x options: strsize truncates strings. */
BEGIN
{
	printf("%s\n", strjoin("abcdefghij", "klmnopqrstuvwxyz"));
	exit(0);
}
