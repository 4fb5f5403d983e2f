sonde script: err.macro_missing.d:1:24: macro argument $2 is not defined: pass it after the program (0 given)
