BEGIN { @a = count(); exit(@a); }
