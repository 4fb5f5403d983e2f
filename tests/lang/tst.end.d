/* @@cmd lang_work 1 */
/* END runs when the -c command exits, before aggregations print. */
syscall::close:entry /pid == $target && execname == "lang_work"/ { n++; }
END { printf("closes %d\n", n); }
