#pragma D option quiet
/*
 * String keys are strsize wide whatever the first key was: a short or
 * empty first key must not truncate later, longer keys that share a
 * prefix (they would collide silently), in an associative array, a
 * thread-local array and an aggregation; string values likewise.
 */
BEGIN
{
	seen[""] = 0;
	seen["lang_work_fn"] = 1;
	seen["lang_work_cb"] = 2;
	printf("assoc %d %d %d\n", seen[""], seen["lang_work_fn"], seen["lang_work_cb"]);

	self->t["ab"] = 0;
	self->t["lang_work_fn"] = 1;
	self->t["lang_work_cb"] = 2;
	printf("self %d %d %d\n", self->t["ab"], self->t["lang_work_fn"],
	    self->t["lang_work_cb"]);

	v[1] = "";
	v[2] = "a value much longer than the first";
	printf("value '%s' '%s'\n", v[1], v[2]);

	@a[""] = count();
	@a["lang_work_fn"] = count();
	@a["lang_work_cb"] = count();
	@a["lang_work_cb"] = count();
	exit(0);
}

END
{
	printa("agg '%s' %@d\n", @a);
}
