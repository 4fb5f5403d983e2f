BEGIN { pid = 5; }
