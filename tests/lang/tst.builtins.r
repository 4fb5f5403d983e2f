1 1 1 1
1 1 1
1 1
lang_work syscall:vmlinux:close:entry
1 lang_work
