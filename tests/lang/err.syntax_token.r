sonde script: err.syntax_token.d:1:16: expected an expression, found ';'
