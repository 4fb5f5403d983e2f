sonde script: err.unknown_var.d:1:24: unknown variable 'nosuchvar': assign it before use, or check the name of the built-in
