#pragma D option quiet
/*
 * A D string ends at its first NUL: a literal with an embedded "\0" is the
 * string before it when compared, measured, printed, stored or used as a
 * key (bytes after the NUL used to make "abc\0x" != "abc").
 */
BEGIN
{
	s = "abc\0x";
	t = "abc";
	printf("%d %d %d %d\n", "abc\0x" == "abc", s == t, s != t, s < "abd");
	printf("%d %d %d\n", strlen("abc\0x"), strlen(s), "a\0b" "c" == "a");
	printf("[%s] [%s]\n", s, strjoin(s, "\0def"));
	a["abc\0x"] = 1;
	a["abc"]++;
	printf("%d\n", a["abc"]);
	@k["abc\0x"] = count();
	@k["abc\0y"] = count();
	exit(0);
}
