#pragma D option quiet
/* sizeof(struct NAME) is the BTF size, as sizeof(*ptr) */
BEGIN
{
	printf("%d\n", sizeof(struct task_struct) == sizeof(*curthread));
	printf("%d\n", sizeof(struct list_head));
	exit(0);
}
