0xffffffffffffffff|0x0|0xffffffffffffffff|0xffffffffffffffff|0xffffffffffffffff
0xffffffffffffffff 1

  0xffffffffffffffff                                                1
