sonde script: err.agg_position.d:1:35: aggregation @c cannot be an argument of trunc()
