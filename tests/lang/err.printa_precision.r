sonde script: err.printa_precision.d:5:9: precision 5000 in the format is too large: at most 4096
