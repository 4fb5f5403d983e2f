#pragma D option quiet
/* An integer variable takes the width and sign of its first assignment
 * and wraps to it, as in D and C, in every scope. */
BEGIN
{
	u = (uint8_t)255;
	u++;
	i = (int)2147483647;
	i++;
	w = (uint32_t)0;
	w--;
	self->s = (short)32767;
	self->s++;
	this->c = (int8_t)127;
	this->c += 1;
	a["k"] = (uint16_t)65534;
	a["k"]++;
	x = (uint8_t)250;
	y = (x += 10);
	n = 0;
	n += 4294967296;
	printf("%d %d %u %d %d %d %d %d %d\n", u, i, w, self->s, this->c, a["k"], x, y, n);
	exit(0);
}
