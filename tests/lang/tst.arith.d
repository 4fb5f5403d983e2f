#pragma D option quiet
/* Integer operators, precedence, casts, shifts (division by zero: tst.error). */
BEGIN
{
	a = 17; b = 5; z = 0;
	printf("%d %d %d %d %d\n", a + b * 2, (a + b) * 2, a / b, a % b, -a / b);
	printf("%d %d %d %d %d\n", a & b, a | b, a ^ b, ~a, -a);
	printf("%d %d %d\n", a << 2, a >> 1, -16 >> 2);
	printf("%d %d %d %d\n", a > b, a < b, a == 17, a != 17);
	printf("%d %d %d %d\n", a && z, a || z, a ^^ b, !a);
	printf("%d %d %d\n", (uint8_t)257, (int16_t)65535, (uint32_t)-1 == 4294967295);
	printf("%d %d\n", a > b ? 100 : 200, z ? 1 : 2);
	printf("%d %d\n", sizeof(int), sizeof(uint16_t));
	exit(0);
}
