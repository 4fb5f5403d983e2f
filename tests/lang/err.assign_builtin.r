sonde script: err.assign_builtin.d:1:9: cannot assign to built-in variable 'pid'
