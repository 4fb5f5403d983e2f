2 3
a
d
