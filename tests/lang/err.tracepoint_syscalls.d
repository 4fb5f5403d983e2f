tracepoint:syscalls:sys_enter_openat { x = args->filename; }
