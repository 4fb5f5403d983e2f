sonde script: err.string_arith.d:1:17: operator '+' cannot take string[8] and int64_t: strings only compare (==, !=, <, >...)
