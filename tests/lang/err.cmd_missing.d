/* @@cmd no_such_fixture */
/* @@norm s|-c: .*/no_such_fixture|-c: FIX/no_such_fixture| */
/* a command that cannot run fails before BEGIN (exit 127, as a shell) */
BEGIN { printf("must not run\n"); }
