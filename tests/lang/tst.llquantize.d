#pragma D option quiet
/* llquantize: log-linear buckets. */
BEGIN
{
	@ll = llquantize(3, 10, 0, 3, 10);
	@ll = llquantize(55, 10, 0, 3, 10);
	@ll = llquantize(55, 10, 0, 3, 10);
	@ll = llquantize(700, 10, 0, 3, 10);
	@ll = llquantize(99999, 10, 0, 3, 10);
	exit(0);
}
