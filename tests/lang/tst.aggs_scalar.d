#pragma D option quiet
/* count, sum, avg, min, max, stddev, printed at exit sorted by value. */
BEGIN
{
	@c = count(); @c = count(); @c = count();
	@s = sum(10); @s = sum(-3);
	@a = avg(10); @a = avg(21);
	@mn = min(5); @mn = min(-8); @mn = min(2);
	@mx = max(5); @mx = max(-8); @mx = max(2);
	@sd = stddev(2); @sd = stddev(4); @sd = stddev(4); @sd = stddev(4);
	@sd = stddev(5); @sd = stddev(5); @sd = stddev(7); @sd = stddev(9);
	@k["b"] = count(); @k["a"] = count(); @k["a"] = count(); @k["c"] = count();
	@t["c"] = sum(7);
	exit(0);
}
