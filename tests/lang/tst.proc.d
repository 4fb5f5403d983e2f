/* @@cmd lang_work 1 */
/* @@sort */
#pragma D option quiet
/* proc provider, args[] as DTrace: create, exit (CLD_* reason), signal-send
 * (args[0] target tid, args[1] target pid, args[2] signal). */
proc:::create
/pid == $target/
{
	printf("create\n");
}

proc:::exit
/ppid == $target/
{
	printf("exit %d\n", args[0]);
}

proc:::signal-send
/pid == $target && args[2] == 15/
{
	printf("signal %d %d\n", args[2], args[0] == args[1] && args[1] != pid);
}
