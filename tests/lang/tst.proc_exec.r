exec lang_work
success lang_work
