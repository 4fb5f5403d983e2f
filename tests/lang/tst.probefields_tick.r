tick tick-10ms
tick tick-15ms
