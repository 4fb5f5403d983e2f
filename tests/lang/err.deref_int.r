sonde script: err.deref_int.d:1:21: '->pid' needs a pointer to a struct, not int64_t
