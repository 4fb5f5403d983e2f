/* a cast cannot make a struct value */
BEGIN
{
	x = (struct task_struct)curthread;
}
