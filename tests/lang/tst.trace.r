42 text -1
