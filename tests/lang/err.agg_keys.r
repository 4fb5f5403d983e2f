sonde script: err.agg_keys.d:1:28: aggregation @a has 1 key, used here with 2
