/* @@stderr */
#pragma D option quiet
/* Runtime faults, as DTrace defines them: a bad address in a struct walk,
 * copyinstr(), a dereference (here in a predicate) or a division by zero
 * ends the clause, prints DTrace's message on stderr (with the script
 * location) and fires dtrace:::ERROR in the faulting probe's context
 * (arg1 enabled probe, arg2 action, arg3 -1, arg4 fault, arg5 address);
 * the probe's next clauses still run. */
ERROR
{
	printf("ERROR: epid %d action %d offset %d fault %d addr %x badaddr %d divzero %d\n",
	    arg1, arg2, arg3, arg4, arg5, arg4 == DTRACEFLT_BADADDR,
	    arg4 == DTRACEFLT_DIVZERO);
}

BEGIN
{
	trace("walk\n");
	trace(((struct list_head *)16)->next);
	printf("not reached\n");
}

BEGIN
{
	y = 0;
	printf("%d\n", 1 / y);
}

BEGIN
{
	printf("%s\n", copyinstr(0));
}

BEGIN
/ *(int *)8 == 0 /
{
}

BEGIN
{
	printf("last clause runs\n");
	exit(0);
}
