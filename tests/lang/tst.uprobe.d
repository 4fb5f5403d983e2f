/* @@cmd lang_work 4 */
/* pid$target entry/return and uprobe:path: arguments and return values. */
pid$target:a.out:lang_work_fn:entry
{
	@args[arg0, arg1] = count();
}

pid$target:a.out:lang_work_fn:return
{
	@ret = sum(arg1);
}

uprobe:FIX/lang_work:lang_work_outer
/pid == $target/
{
	@outer = count();
}
