sonde script: err.rate_overflow.d:1:1: bad rate in tick-9223372036854775807ms: write tick-97 (Hz), tick-10ms, tick-1s (at most 100000 Hz, at least 10us)
