/* @@opts -x aggsize=99999999999 */
BEGIN { @a[1] = count(); }
