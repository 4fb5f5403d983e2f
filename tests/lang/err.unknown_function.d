BEGIN { x = frobnicate(1); }
