
  write                                                             5
  openat                                                            7
  read                                                              7
  close                                                             8
