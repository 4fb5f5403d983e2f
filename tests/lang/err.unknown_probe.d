syscall::no_such_syscall:entry { x = 1; }
