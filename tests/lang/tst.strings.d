#pragma D option quiet
/* String comparison, strlen, strjoin, basename, ternary on strings. */
BEGIN
{
	s = "hello";
	t = strjoin(s, " world");
	printf("%s|%d|%d\n", t, strlen(t), strlen(""));
	printf("%d %d %d %d\n", s == "hello", s != "hello", s < "help", "b" > "a");
	printf("%s %s %s %s %s\n", basename("/usr/bin/ls"), basename("/a/b/"),
	    basename("/"), basename("plain"), basename(""));
	printf("%s\n", strlen(s) > 3 ? "long" : "short");
	exit(0);
}
