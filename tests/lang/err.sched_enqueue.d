sched:::enqueue { x = 1; }
