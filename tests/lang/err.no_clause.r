sonde script: err.no_clause.d:2:1: the program has no clause: write 'PROBE { ACTIONS }'
