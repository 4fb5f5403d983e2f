#pragma D option quiet
/* Globals (int and string), ++, +=, this-> clause-local variables. */
BEGIN
{
	n = 1; n++; ++n; n += 10; n -= 2; n *= 3;
	name = "first";
	name = "second";
	this->x = 7;
	this->y = this->x * 2;
	printf("%d %s %d\n", n, name, this->y);
}

BEGIN
{
	printf("%d %s\n", n, name);
	exit(0);
}
