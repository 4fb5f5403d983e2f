#pragma D option quiet
/* if/else statements. */
BEGIN
{
	x = 3;
	if (x > 2)
		printf("big\n");
	else
		printf("small\n");
	if (x == 0) {
		printf("zero\n");
	} else if (x == 3) {
		printf("three\n");
	}
	exit(0);
}
