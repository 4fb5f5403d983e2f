BEGIN { @a["x"] = count(); @a[1, 2] = count(); }
