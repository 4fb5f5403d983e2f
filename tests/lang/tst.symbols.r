lang_work`lang_work_leaf+0x0|lang_work`lang_work_leaf|lang_work|lang_work`lang_work_leaf+0x2|lang_work`lang_work_leaf+0x3
vmlinux`enqueue_task_fair|vmlinux`enqueue_task_fair|vmlinux|vmlinux`enqueue_task_fair+0x1

  lang_work`lang_work_leaf                                          2

  lang_work                                                         1

  lang_work`lang_work_leaf+0x1                                      1
