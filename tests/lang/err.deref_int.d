BEGIN { x = 5; y = x->pid; }
