/* Not quiet (DTrace's default): each firing of a clause that records data,
 * or has no statement, prints "CPU ID FUNCTION:NAME" (after a heading),
 * then its records, then a newline; trace() right-aligns integers in a
 * width by their size and left-aligns strings. A clause recording nothing
 * (x = 1) prints nothing. */
/* @@norm s/^ +[0-9]+( +[0-9]+ +[^ ]*:)/  C\1/ */
BEGIN { trace(42); trace("text"); }
BEGIN { }
BEGIN { x = 1; }
BEGIN { printf("hi\n"); }
BEGIN { exit(0); }
END { trace((char)1); trace((short)2); trace((int)3); }
