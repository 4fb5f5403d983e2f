sonde script: err.int_too_large.d:4:6: integer constant 18446744073709551616 is too large: it must fit in 64 bits
