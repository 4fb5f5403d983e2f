sonde script: err.spec_twice.d:5:2: speculate() may not follow speculate(): one speculation per clause
