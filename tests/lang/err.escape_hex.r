sonde script: err.escape_hex.d:4:19: invalid escape '\x': it needs 1 or 2 hex digits (\x41)
