#pragma D option quiet
#if 0
BEGIN { printf("disabled code must not run\n"); }
#endif
BEGIN { exit(0); }
