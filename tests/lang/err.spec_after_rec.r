sonde script: err.spec_after_rec.d:5:2: speculate() may not follow data-recording actions
