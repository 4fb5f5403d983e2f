/* speculate() comes before any data-recording action */
BEGIN
{
	printf("a");
	speculate(speculation());
}
