sonde script: err.agg_mismatch.d:1:28: @a is a count() aggregation (line 1), used here with sum()
