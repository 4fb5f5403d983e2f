tick-0s { exit(0); }
