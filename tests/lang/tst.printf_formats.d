#pragma D option quiet
/* printf: D conversions with flags, width and precision. */
BEGIN
{
	printf("[%d] [%5d] [%-5d] [%05d] [%+d]\n", 42, 42, 42, 42, 42);
	printf("[%u] [%x] [%X] [%#x] [%o] [%c]\n", 255, 255, 255, 255, 8, 65);
	printf("[%s] [%10s] [%-10s] [%.3s]\n", "abc", "abc", "abc", "abcdef");
	printf("[%i] [%d] [100%%] [%p]\n", -7, (int8_t)200, 4096);
	exit(0);
}
