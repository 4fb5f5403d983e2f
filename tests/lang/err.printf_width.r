sonde script: err.printf_width.d:5:9: width 99999999999 in the format is too large: at most 4096
