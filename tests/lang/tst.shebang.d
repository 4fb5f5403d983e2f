#!/usr/bin/env -S sonde script -s
#pragma D option quiet
/* A #! first line is ignored, so scripts can be executables. */
BEGIN { printf("shebang ok\n"); exit(0); }
