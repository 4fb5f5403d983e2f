BEGIN { printf("%d\n", nosuchvar); }
