/* @@cmd lang_work 1 */
/* @@sort */
/* proc provider: create, exit (wait status), signal-send. */
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
/pid == $target && args[1] == 15/
{
	printf("signal %d\n", args[1]);
}
