/* @@opts --json */
#pragma D option quiet
/* --json: NDJSON records for printf, trace and aggregations. */
BEGIN
{
	printf("a \"quoted\" line\n");
	trace(7);
	@n["x"] = count();
	@q = quantize(4);
	exit(0);
}
