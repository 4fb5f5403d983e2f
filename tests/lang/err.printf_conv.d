BEGIN { printf("%d\n", "str"); }
