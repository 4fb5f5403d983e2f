syscall::read:entry /pid == $target/ { x = 1; }
