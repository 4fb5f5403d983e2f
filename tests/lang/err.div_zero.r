sonde script: err.div_zero.d:1:18: division by zero
