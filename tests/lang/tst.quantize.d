#pragma D option quiet
/* quantize: power-of-two buckets, negatives and zero. */
BEGIN
{
	@q = quantize(0); @q = quantize(1); @q = quantize(3); @q = quantize(3);
	@q = quantize(1000); @q = quantize(-5);
	exit(0);
}
