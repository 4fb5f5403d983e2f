sonde script: err.printf_conv.d:1:24: %d in the format cannot print string[8]: use %s
