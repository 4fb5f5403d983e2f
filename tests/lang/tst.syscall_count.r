
  write                                                             5
  read                                                              6
  close                                                             7
  openat                                                            7
