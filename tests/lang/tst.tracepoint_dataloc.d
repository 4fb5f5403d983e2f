/* @@cmd lang_work 1 */
#pragma D option quiet
/* __data_loc fields (variable-length data inside the record) are decoded
 * from the tracefs format: sched_process_exec's filename is a string. */
tracepoint:sched:sched_process_exec
/pid == $target/
{
	printf("%s %d %d\n", basename(args->filename), args->pid == pid, args->old_pid == pid);
}
