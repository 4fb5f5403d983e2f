/* aggregations are never speculative */
BEGIN
{
	speculate(speculation());
	@a = count();
}
