sonde script: err.sched_enqueue.d:1:1: sched:::enqueue is unavailable: this kernel has no tracepoint for run-queue enqueue; use sched:::wakeup or sched:::on-cpu
