BEGIN
{
	printf("x\n");
