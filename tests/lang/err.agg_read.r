sonde script: err.agg_read.d:1:27: aggregation @a cannot be read in a clause: print it with printa(@a)
