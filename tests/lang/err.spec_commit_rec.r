sonde script: err.spec_commit_rec.d:5:2: trace() may not follow commit(): a clause that commits records no data
