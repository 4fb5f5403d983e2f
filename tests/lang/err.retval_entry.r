sonde script: err.retval_entry.d:1:27: retval is only defined in return probes (:return), not in syscall:vmlinux:read:entry
