BEGIN { @l = lquantize(1, 10, 0, 1); }
