sonde script: err.tracepoint_field.d:1:47: struct sched:sched_process_exec has no member named 'nosuch'
