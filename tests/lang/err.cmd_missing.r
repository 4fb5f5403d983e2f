sonde script: -c: FIX/no_such_fixture: command not found
