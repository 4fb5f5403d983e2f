/* a clause that commits records no data */
BEGIN
{
	commit(1);
	trace(1);
}
