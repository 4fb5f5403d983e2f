sonde script: err.paren_found.d:4:8: expected ')' to close '(', found ';'
