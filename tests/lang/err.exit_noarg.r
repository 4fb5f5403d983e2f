sonde script: err.exit_noarg.d:4:2: exit() takes 1 argument, not 0
