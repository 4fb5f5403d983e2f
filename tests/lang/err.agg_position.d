BEGIN { @c[1] = sum(1); trunc(@c, @c); }
