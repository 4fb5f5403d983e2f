sonde script: err.agg_nargs.d:1:14: llquantize() takes 5 arguments, not 2
