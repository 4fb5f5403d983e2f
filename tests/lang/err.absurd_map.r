sonde script: cannot create map a (16777216 entries of 8+4096 bytes): Cannot allocate memory; lower it with -x dynvarsize=N
