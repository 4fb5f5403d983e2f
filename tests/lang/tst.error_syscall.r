
  lang_work             write                               2
  lang_work             read                                3
-- @@stderr --
sonde script: error on enabled probe ID N (ID N: syscall:vmlinux:read:entry): invalid address (0x0) in action #3 at tst.error_syscall.d:16:15
sonde script: error on enabled probe ID N (ID N: syscall:vmlinux:read:entry): invalid address (0x0) in action #3 at tst.error_syscall.d:16:15
sonde script: error on enabled probe ID N (ID N: syscall:vmlinux:write:entry): invalid address (0x0) in action #3 at tst.error_syscall.d:16:15
sonde script: error on enabled probe ID N (ID N: syscall:vmlinux:read:entry): invalid address (0x0) in action #3 at tst.error_syscall.d:16:15
sonde script: error on enabled probe ID N (ID N: syscall:vmlinux:write:entry): invalid address (0x0) in action #3 at tst.error_syscall.d:16:15
