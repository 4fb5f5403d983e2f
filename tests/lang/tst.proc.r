create
create
exit 768
signal 15
exit 15
