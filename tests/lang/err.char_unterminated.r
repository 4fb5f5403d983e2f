sonde script: err.char_unterminated.d:1:13: unterminated character constant: add the closing '
