BEGIN { x = 1 +; }
