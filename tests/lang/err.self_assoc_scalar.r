sonde script: err.self_assoc_scalar.d:2:29: 'self->a' is an associative array: index it, self->a[key]
