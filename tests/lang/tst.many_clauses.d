/* @@cmd lang_work 2 nofork */
#pragma D option quiet
/* 70 clauses sharing the sys_enter program, each spilling a value: stack
 * slots are reused once their value is dead (70 x 2 writes = 140). */
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }
syscall::write:entry /pid == $target/ { @n = count(); }

END
{
	printa("%@d\n", @n);
	trunc(@n);
}
