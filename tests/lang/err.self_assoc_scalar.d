/* One name, one kind: self->a is an array here, then read as a scalar. */
BEGIN { self->a[1] = 2; x = self->a; }
