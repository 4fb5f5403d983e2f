#pragma D option quiet
/* lquantize with a step not dividing hi - lo: (hi - lo) / step levels, the
 * last bucket starts at lo + levels * step (DTrace: ">= 9", not ">= 10").
 * The same parameters may be used again. */
BEGIN
{
	@l = lquantize(9, 0, 10, 3);
	@l = lquantize(3, 0, 10, 3);
	@l = lquantize(-1, 0, 10, 3);
	exit(0);
}
