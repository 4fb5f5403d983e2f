sonde script: err.llquantize_params.d:5:7: @l is used with different llquantize() parameters here than at line 4
