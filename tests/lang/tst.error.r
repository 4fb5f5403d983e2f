walk
ERROR: epid 2 action 2 offset -1 fault 1 addr 10 badaddr 1 divzero 0
ERROR: epid 3 action 2 offset -1 fault 4 addr 0 badaddr 0 divzero 1
ERROR: epid 4 action 1 offset -1 fault 1 addr 0 badaddr 1 divzero 0
ERROR: epid 5 action 0 offset -1 fault 1 addr 8 badaddr 1 divzero 0
last clause runs
-- @@stderr --
sonde script: error on enabled probe ID 2 (ID 1: dtrace:::BEGIN): invalid address (0x10) in action #2 at tst.error.d:19:32
sonde script: error on enabled probe ID 3 (ID 1: dtrace:::BEGIN): divide-by-zero in action #2 at tst.error.d:26:19
sonde script: error on enabled probe ID 4 (ID 1: dtrace:::BEGIN): invalid address (0x0) in action #1 at tst.error.d:31:17
sonde script: error on enabled probe ID 5 (ID 1: dtrace:::BEGIN): invalid address (0x8) in predicate at tst.error.d:35:3
