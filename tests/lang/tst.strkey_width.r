assoc 0 1 2
self 0 1 2
value '' 'a value much longer than the first'
agg '' 1
agg 'lang_work_fn' 1
agg 'lang_work_cb' 2
