sonde script: -x aggsize: the value must be a number from 1 to 16777216
