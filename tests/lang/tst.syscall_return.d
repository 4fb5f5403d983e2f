/* @@cmd lang_work 3 */
/* On syscall return arg0 and arg1 hold the return value; errno is set. */
syscall::write:return
/pid == $target/
{
	@[arg0, arg1, errno] = count();
}
