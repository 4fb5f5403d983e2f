BEGIN /execname/ { x = 1; }
