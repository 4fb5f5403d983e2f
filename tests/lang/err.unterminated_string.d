BEGIN { printf("abc); }
