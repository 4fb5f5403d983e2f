fbt::do_sys_open:entry { x = 1; }
