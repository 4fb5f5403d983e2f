sonde script: err.lquantize_params.d:1:14: lquantize() needs lower < upper, a positive step and at most 4000 buckets in 32-bit range
