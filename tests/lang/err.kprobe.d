kprobe:do_sys_open { x = 1; }
