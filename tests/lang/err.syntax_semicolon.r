sonde script: err.syntax_semicolon.d:1:15: expected ';' after the statement, found identifier
