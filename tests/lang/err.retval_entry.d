syscall::read:entry { x = retval; }
