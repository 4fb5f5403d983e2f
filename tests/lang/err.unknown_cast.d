BEGIN { x = (struct no_such_struct *)0; }
