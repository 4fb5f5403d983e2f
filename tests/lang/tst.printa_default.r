read       1

  never                                                             1

  default                                                           1
