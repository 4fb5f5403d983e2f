#pragma D option quiet
/* lquantize: linear buckets with underflow and overflow rows; keyed. */
BEGIN
{
	@l["k"] = lquantize(5, 0, 10, 2);
	@l["k"] = lquantize(5, 0, 10, 2);
	@l["k"] = lquantize(12, 0, 10, 2);
	@l["k"] = lquantize(-1, 0, 10, 2);
	exit(0);
}
