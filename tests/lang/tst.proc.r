create
create
exit 15
exit 768
signal 15
