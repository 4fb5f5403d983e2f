shebang ok
