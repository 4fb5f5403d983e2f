sonde script: err.lquantize_params.d:10:7: @l is used with different lquantize() parameters here than at line 5
