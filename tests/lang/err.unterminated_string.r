sonde script: err.unterminated_string.d:1:16: unterminated string: add the closing "
