sonde script: err.predicate_string.d:1:8: a predicate must be an integer or pointer, not string[16]: compare the string, e.g. /execname == "sh"/
