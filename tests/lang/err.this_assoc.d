/* D has no clause-local associative arrays (DTrace: D_ARR_LOCAL). */
BEGIN { this->a[1] = 2; }
