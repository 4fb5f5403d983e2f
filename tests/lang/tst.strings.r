hello world|11|0
1 0 1 1
ls b / plain .
long
