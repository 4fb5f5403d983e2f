sonde script: err.cast_struct.d:4:6: cannot cast to a struct value: cast to 'struct task_struct *'
