/etc/hostname 0 1
/etc/hostname 0 1
