#pragma D option quiet
/* One aggregation, two sets of lquantize() parameters: refused, as in DTrace. */
BEGIN
{
	@l = lquantize(5, 0, 10, 1);
}

BEGIN
{
	@l = lquantize(1, 0, 100, 10);
	exit(0);
}
