sonde script: err.unknown_function.d:1:13: unknown function 'frobnicate()'
