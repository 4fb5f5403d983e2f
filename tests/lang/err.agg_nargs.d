BEGIN { @l = llquantize(1, 10); }
