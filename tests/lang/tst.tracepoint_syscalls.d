/* @@cmd lang_work 3 */
#pragma D option quiet
/* tracepoint:syscalls: typed fields of sys_enter_NAME / sys_exit_NAME from
 * the tracefs format (pointers are user addresses). The fixture writes 1
 * byte to fd -1 three times: EBADF. */
tracepoint:syscalls:sys_enter_write
/pid == $target/
{
	@calls[args->fd, args->count, args->buf != 0] = count();
}

tracepoint:syscalls:sys_exit_write
/pid == $target/
{
	@rets[args->ret, args->__syscall_nr] = count();
}
