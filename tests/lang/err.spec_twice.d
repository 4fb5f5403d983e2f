/* one speculation per clause */
BEGIN
{
	speculate(1);
	speculate(2);
}
