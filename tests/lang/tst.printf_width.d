#pragma D option quiet
/* printf %u %x %X %o print the bits of the argument's own width (C,
 * DTrace): a negative int is 32 bits, not sign-extended to 64. */
BEGIN
{
	printf("%x %u %o\n", (int)-5, (int)-5, (int)-5);
	printf("%X %x %x %d\n", (short)-1, (int8_t)-1, (long)-1, (int)-5);
	printf("%u %x\n", (uint32_t)4294967295, (uint16_t)65535);
	exit(0);
}
