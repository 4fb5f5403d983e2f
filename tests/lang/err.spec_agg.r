sonde script: err.spec_agg.d:5:5: aggregations may not follow speculate(): they are never speculative
