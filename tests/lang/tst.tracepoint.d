/* @@cmd lang_work 1 */
#pragma D option quiet
/* tracepoint: args->field typed from the kernel's BTF record layout. */
tracepoint:sched:sched_process_fork
/pid == $target/
{
	printf("fork %d\n", args->child_pid != $target);
}
