sonde script: err.pragma_unknown.d:2:1: unknown pragma '#pragma D nonsense': only '#pragma D option NAME[=VALUE]' is supported
