cpu 45..90 ms: 1, wall >= 145 ms: 1, cpu < wall: 1
