sonde script: err.type_mismatch.d:1:16: type mismatch: 'x' is int64_t, assigned string[8]
