/* @@opts -x dynvarsize=16777216 -x strsize=4096 */
/* A map of 16M entries of 4 KiB strings cannot be created. */
BEGIN { a[1] = "x"; exit(0); }
