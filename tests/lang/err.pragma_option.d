/* an unknown option is reported at its line */
BEGIN { exit(0); }
#pragma D option foo
