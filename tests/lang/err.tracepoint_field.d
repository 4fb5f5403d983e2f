tracepoint:sched:sched_process_exec { x = args->nosuch; }
