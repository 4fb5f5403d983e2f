pid a.out lang_work_cb entry
pid a.out lang_work_fn entry
pid a.out lang_work_outer entry
proc exec-success
proc exit
sched off-cpu
sched on-cpu
syscall write entry
syscall write return
tracepoint syscalls sys_enter_write
tracepoint syscalls sys_exit_write
