strcmp 1
