fd -1: 3 calls, 3 bytes; fd 9: 0; first []
freed: 0
