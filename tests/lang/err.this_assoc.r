sonde script: err.this_assoc.d:2:16: this->a: clause-local variables cannot be associative arrays (as in DTrace); use self->a[...] or a global a[...]
