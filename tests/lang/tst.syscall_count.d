/* @@cmd lang_work 5 */
/* syscall entry counts by probefunc for the target, sorted by count. */
syscall::openat:entry, syscall::read:entry, syscall::close:entry, syscall::write:entry
/pid == $target && execname == "lang_work"/
{
	@[probefunc] = count();
}
