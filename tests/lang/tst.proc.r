create
create
exit 1
exit 2
signal 15 1
