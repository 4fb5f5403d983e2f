/* @@cmd lang_work 1 */
/* @@norm s/[+]0x[0-9a-f]+/+OFF/ */
#pragma D option quiet
/* ustack() as a statement and as an aggregation key. */
pid$target:a.out:lang_work_fn:entry
{
	ustack(2);
	@[ustack(2)] = count();
}
