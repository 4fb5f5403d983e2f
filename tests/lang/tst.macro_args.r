43 hello 42
