BEGIN { x = curthread->no_such_member; }
