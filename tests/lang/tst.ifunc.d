/* @@cmd lang_work 1 nofork */
#pragma D option quiet
/* libc's strcmp is a GNU indirect function: the probe goes on the
 * implementation its resolver picks, which the fixture calls once. */
pid$target:libc:strcmp:entry
{
	n++;
}

END
{
	printf("strcmp %d\n", n);
}
