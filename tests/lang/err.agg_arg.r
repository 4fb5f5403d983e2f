sonde script: err.agg_arg.d:1:28: aggregation @a cannot be an argument of exit()
