fork 1
fork 1
