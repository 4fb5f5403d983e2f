/etc/hostname 1 1
/etc/hostname 1 1
