/* @@cmd lang_work 4 */
/* Globs in probe descriptions; probefunc differs per syscall (names map). */
syscall::*at:entry
/pid == $target && probefunc == "openat"/
{
	@[probefunc, probename] = count();
}
