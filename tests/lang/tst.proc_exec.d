/* @@cmd lang_work 1 */
#pragma D option quiet
/* proc:::exec gets the path; exec-success fires in the new image. */
proc:::exec
/pid == $target/
{
	printf("exec %s\n", basename(args[0]));
}

proc:::exec-success
/pid == $target/
{
	printf("success %s\n", execname);
}
