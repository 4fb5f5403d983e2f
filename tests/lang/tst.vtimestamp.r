cpu 20..90 ms: 1, wall >= 145 ms: 1, wall - cpu >= 90 ms: 1
