/* the token found is named, not the one expected */
BEGIN
{
	x = (1;
}
