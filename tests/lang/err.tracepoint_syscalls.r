sonde script: no BTF layout (struct trace_event_raw_sys_enter_openat) for tracepoint syscalls:sys_enter_openat; for syscalls use the syscall provider
