sonde script: err.struct_member.d:1:22: struct task_struct has no member named 'no_such_member'
