sonde script: err.action_in_expr.d:1:13: trace() is an action and has no value: use it as a statement
