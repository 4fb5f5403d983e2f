sonde script: err.macro_too_large.d:4:6: macro argument 99999999999999999999999 is too large: it must fit in 64 bits
