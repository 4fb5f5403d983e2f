/* One aggregation, two sets of llquantize() parameters: refused. */
BEGIN
{
	@l = llquantize(5, 10, 0, 2, 10);
	@l = llquantize(5, 2, 0, 4, 2);
	exit(0);
}
