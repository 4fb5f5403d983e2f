sonde script: err.spec_exit.d:6:2: exit() may not follow speculate(): exit() is never speculative
