
  openat                entry                               6
