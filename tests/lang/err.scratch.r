sonde script: the clauses need 49248 bytes of per-CPU scratch memory, more than the 32 KiB limit: use fewer or shorter strings (-x strsize=N)
