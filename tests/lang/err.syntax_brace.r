sonde script: err.syntax_brace.d:4:1: missing '}' at end of input
