sonde script: err.target_unset.d:1:29: $target is not set: use -c CMD or -p PID
