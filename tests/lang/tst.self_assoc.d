/* @@cmd lang_work 3 */
#pragma D option quiet
/* Thread-local associative arrays: self->a[key] is per thread and per
 * key tuple; assigning 0 frees an element; absent elements read as 0 or "".
 * The fixture writes 1 byte to fd -1 three times. */
syscall::write:entry
/pid == $target/
{
	self->n[(int)arg0, "bytes"] += arg2;
	self->n[(int)arg0, "calls"]++;
	self->name[1] = "first";
}

syscall::write:return
/pid == $target && self->n[-1, "calls"] == 3/
{
	printf("fd -1: %d calls, %d bytes; fd 9: %d; %s [%s]\n", self->n[-1, "calls"],
	    self->n[-1, "bytes"], self->n[9, "calls"], self->name[1], self->name[2]);
	self->n[-1, "calls"] = 0;
	printf("freed: %d\n", self->n[-1, "calls"]);
}

/* other threads do not see this thread's elements */
syscall::write:entry
/pid != $target && self->name[1] != ""/
{
	printf("leak\n");
}
