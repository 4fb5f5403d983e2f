BEGIN { printf("%d\n", $2); }
