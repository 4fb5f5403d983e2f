/* @@opts -q */
/* -q makes the output quiet without a pragma. */
BEGIN { trace(1); trace("\n"); exit(0); }
