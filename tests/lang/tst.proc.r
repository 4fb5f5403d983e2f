create
exit 768
create
signal 15
exit 15
