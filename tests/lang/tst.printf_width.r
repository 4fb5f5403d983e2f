fffffffb 4294967291 37777777773
FFFF ff ffffffffffffffff -5
4294967295 ffff
