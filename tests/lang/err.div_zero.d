BEGIN { x = 10 / 0; }
