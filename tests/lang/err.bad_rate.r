sonde script: err.bad_rate.d:1:1: bad rate in tick-0s: write tick-97 (Hz), tick-10ms, tick-1s (at most 100000 Hz, at least 10us)
