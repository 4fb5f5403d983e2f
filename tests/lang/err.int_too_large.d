/* a constant that does not fit 64 bits is refused, not saturated */
BEGIN
{
	x = 18446744073709551616;
}
