BEGIN { x = trace(1) + 1; }
