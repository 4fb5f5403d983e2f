/* @@args 42 hello */
#pragma D option quiet
/* Macro arguments: $1 as a number, $2 and $$1 as strings. */
BEGIN
{
	printf("%d %s %s\n", $1 + 1, $2, $$1);
	exit(0);
}
