/* @@opts -x strsize=4096 */
#pragma D option quiet
BEGIN { printf("%s %s %s %s %s %s %s %s %s\n", strjoin("a", "b"), strjoin("c", "d"), strjoin("e", "f"), strjoin("g", "h"), "i", "j", "k", "l", "m"); }
