lang_work 1 1
