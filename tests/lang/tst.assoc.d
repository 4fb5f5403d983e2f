#pragma D option quiet
/* Associative arrays with tuple keys; assigning 0 deletes; absent reads 0. */
BEGIN
{
	a["x", 1] = 10;
	a["x", 2] = 20;
	a["y", 1] += 5;
	a["x", 1]++;
	printf("%d %d %d %d\n", a["x", 1], a["x", 2], a["y", 1], a["nope", 9]);
	a["x", 2] = 0;
	printf("%d\n", a["x", 2]);
	names[1] = "one";
	printf("%s|%s|\n", names[1], names[2]);
	exit(0);
}
